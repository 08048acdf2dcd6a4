extension LengthHeaderFormat {
    /// The message a complete frame carries, once its trailer checked: with `.insert` the frame
    /// without the length's bytes, with `.overlay` the whole frame (header included), in both
    /// cases without the trailer.
    public func message(ofFrame frame: [UInt8]) throws(FramingError) -> [UInt8] {
        try validate()
        guard frame.count >= headerSize + trailerWidth else {
            throw .frameShorterThanHeader(frameLength: frame.count, headerSize: headerSize + trailerWidth)
        }
        let end = frame.count - trailerWidth
        if let trailer {
            let computed = trailer.checksum.value(of: Array(frame[..<end])) & Self.mask(width: trailer.width)
            let received = Self.unsigned(frame[end...], endianness: endianness)
            guard computed == received else {
                throw .checksumMismatch(checksum: trailer.checksum.name, width: trailer.width,
                                        computed: computed, received: received)
            }
        }
        switch lengthField {
        case .insert: return Array(frame[..<lengthOffset]) + frame[(lengthOffset + lengthWidth)..<end]
        case .overlay: return Array(frame[..<end])
        }
    }

    /// The bytes after the header and before the trailer (empty when the frame is no longer
    /// than its header). Neither the length field nor the trailer is consulted.
    public func payload(ofFrame frame: [UInt8]) -> [UInt8] {
        Array(frame.dropFirst(headerSize).dropLast(trailerWidth))
    }

    /// The raw value of the length field in `header`, which must hold at least the first
    /// `lengthOffset + lengthWidth` bytes of a frame; nil when it is shorter.
    package func announcedLength<Bytes: Collection>(inHeader header: Bytes) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard header.count >= lengthOffset + lengthWidth else { return nil }
        let start = header.startIndex + lengthOffset
        return Int(Self.unsigned(header[start..<start + lengthWidth], endianness: endianness))
    }

    /// The unsigned integer in `bytes` (at most 8) read in `endianness`.
    static func unsigned<Bytes: Collection>(_ bytes: Bytes, endianness: Endianness) -> UInt64
    where Bytes.Element == UInt8 {
        let ordered = endianness == .big ? Array(bytes) : bytes.reversed()
        return ordered.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
