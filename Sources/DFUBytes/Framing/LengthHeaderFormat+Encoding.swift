extension LengthHeaderFormat {
    /// Builds the frame that carries `message`: with `.insert`, the message's first
    /// `lengthOffset` bytes, the length, the rest of the message; with `.overlay`, the message
    /// with the length written over its bytes at `lengthOffset`. Then the trailer, if any.
    ///
    /// The message must hold the header's bytes other than an inserted length
    /// (`headerBytesInMessage`).
    public func frame(message: [UInt8]) throws(FramingError) -> [UInt8] {
        try validate()
        guard message.count >= headerBytesInMessage else {
            throw .messageShorterThanHeader(messageLength: message.count, headerBytes: headerBytesInMessage)
        }
        switch lengthField {
        case .insert:
            var frame = Array(message[..<lengthOffset])
            frame += repeatElement(0, count: lengthWidth)
            frame += message[lengthOffset...]
            return appendingTrailer(to: try seal(frame: frame))
        case .overlay:
            return appendingTrailer(to: try seal(frame: message))
        }
    }

    /// Builds a frame for a length-only header: the length field, then `payload`, then the
    /// trailer, if any.
    ///
    /// Headers with other fields (such as SMP's operation, group and sequence) cannot be built
    /// here: use `frame(message:)`.
    public func frame(payload: [UInt8]) throws(FramingError) -> [UInt8] {
        try validate()
        guard isLengthOnly else {
            throw .headerNotLengthOnly(headerSize: headerSize, lengthWidth: lengthWidth)
        }
        var frame = [UInt8](repeating: 0, count: headerSize)
        frame.append(contentsOf: payload)
        return appendingTrailer(to: try seal(frame: frame))
    }

    /// Writes the length field in place into a frame whose first `headerSize` bytes are the
    /// header, and which does not have its trailer yet; every other byte is left as it is. The
    /// value written is the payload length (`frame.count - headerSize`), or `frame.count` when
    /// the field counts the whole frame, plus the trailer's width when it counts the trailer.
    package func seal(frame: [UInt8]) throws(FramingError) -> [UInt8] {
        try validate()
        guard frame.count >= headerSize else {
            throw .frameShorterThanHeader(frameLength: frame.count, headerSize: headerSize)
        }
        let payloadLength = frame.count - headerSize
        guard payloadLength <= effectivePayloadLimit else {
            throw .payloadTooLong(length: payloadLength, limit: effectivePayloadLimit)
        }
        let fieldValue = (lengthCounts == .frame ? frame.count : payloadLength) + countedTrailerWidth
        var sealed = frame
        sealed.replaceSubrange(lengthOffset..<lengthOffset + lengthWidth,
                               with: Self.unsignedBytes(UInt64(fieldValue), width: lengthWidth, endianness: endianness))
        return sealed
    }

    /// `frame` followed by the trailer's checksum over it (`frame` unchanged without a trailer).
    package func appendingTrailer(to frame: [UInt8]) -> [UInt8] {
        guard let trailer else { return frame }
        let value = trailer.checksum.value(of: frame) & Self.mask(width: trailer.width)
        return frame + Self.unsignedBytes(value, width: trailer.width, endianness: endianness)
    }

    /// The low `width` bytes (1...8) of `value` in `endianness`.
    static func unsignedBytes(_ value: UInt64, width: Int, endianness: Endianness) -> [UInt8] {
        let little = (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
        return endianness == .little ? little : little.reversed()
    }

    /// All ones in the low `width` bytes.
    static func mask(width: Int) -> UInt64 {
        width >= 8 ? .max : (1 << UInt64(width * 8)) - 1
    }
}
