extension LengthHeaderFormat {
    /// Builds a frame for a length-only header: the length field, then `payload`.
    ///
    /// Headers with other fields (such as SMP's operation, group and sequence) cannot be built
    /// here: assemble header and payload yourself and call `seal(frame:)`.
    public func frame(payload: [UInt8]) throws(FramingError) -> [UInt8] {
        try validate()
        guard isLengthOnly else {
            throw .headerNotLengthOnly(headerSize: headerSize, lengthWidth: lengthWidth)
        }
        var frame = [UInt8](repeating: 0, count: headerSize)
        frame.append(contentsOf: payload)
        return try seal(frame: frame)
    }

    /// Writes the length field in place into a frame whose first `headerSize` bytes are the
    /// header; every other byte is left as it is. The value written is the payload length
    /// (`frame.count - headerSize`), or `frame.count` when the field counts the whole frame.
    public func seal(frame: [UInt8]) throws(FramingError) -> [UInt8] {
        try validate()
        guard frame.count >= headerSize else {
            throw .frameShorterThanHeader(frameLength: frame.count, headerSize: headerSize)
        }
        let payloadLength = frame.count - headerSize
        guard payloadLength <= effectivePayloadLimit else {
            throw .payloadTooLong(length: payloadLength, limit: effectivePayloadLimit)
        }
        let fieldValue = lengthCounts == .frame ? frame.count : payloadLength
        var field = ByteWriter(capacity: lengthWidth)
        field.append(UInt64(fieldValue), width: lengthWidth, endianness: endianness)
        var sealed = frame
        sealed.replaceSubrange(lengthOffset..<lengthOffset + lengthWidth, with: field.bytes)
        return sealed
    }

    /// The bytes after the header (empty when the frame is no longer than its header).
    /// The length field is not consulted.
    public func payload(ofFrame frame: [UInt8]) -> [UInt8] {
        Array(frame.dropFirst(headerSize))
    }

    /// The raw value of the length field in `header`, which must hold at least the first
    /// `lengthOffset + lengthWidth` bytes of a frame; nil when it is shorter.
    public func announcedLength<Bytes: Collection>(inHeader header: Bytes) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard header.count >= lengthOffset + lengthWidth else { return nil }
        let start = header.startIndex + lengthOffset
        var value = 0
        switch endianness {
        case .little:
            for index in stride(from: lengthWidth - 1, through: 0, by: -1) {
                value = value << 8 | Int(header[start + index])
            }
        case .big:
            for index in 0..<lengthWidth {
                value = value << 8 | Int(header[start + index])
            }
        }
        return value
    }
}
