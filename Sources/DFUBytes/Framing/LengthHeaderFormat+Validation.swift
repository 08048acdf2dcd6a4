extension LengthHeaderFormat {
    /// Length field widths a format may use, in bytes.
    package static let supportedLengthWidths: Set<Int> = [1, 2, 4]

    /// Trailer widths a format may use, in bytes.
    package static let supportedTrailerWidths = 1...8

    /// Checks that the layout is usable: a width of 1, 2 or 4 bytes, a length field wholly
    /// inside the header, a non-negative payload limit and a trailer of 1 to 8 bytes.
    public func validate() throws(FramingError) {
        guard Self.supportedLengthWidths.contains(lengthWidth) else {
            throw .unsupportedLengthWidth(lengthWidth)
        }
        guard lengthOffset >= 0, lengthOffset + lengthWidth <= headerSize else {
            throw .lengthFieldOutsideHeader(lengthOffset: lengthOffset, lengthWidth: lengthWidth,
                                            headerSize: headerSize)
        }
        guard maximumPayloadLength >= 0 else {
            throw .negativeMaximumPayloadLength(maximumPayloadLength)
        }
        if let trailer, !Self.supportedTrailerWidths.contains(trailer.width) {
            throw .unsupportedTrailerWidth(name: trailer.checksum.name, width: trailer.width)
        }
    }

    /// Whether the header is nothing but the length field, so `frame(payload:)` can build it.
    package var isLengthOnly: Bool { headerSize == lengthWidth && lengthOffset == 0 }

    /// The longest payload this format can carry: `maximumPayloadLength`, further bounded by
    /// the largest value the length field can hold (less the header when it counts the frame,
    /// and less the trailer when it counts it).
    package var effectivePayloadLimit: Int {
        let fieldMaximum = lengthWidth >= MemoryLayout<Int>.size ? Int.max : (1 << (lengthWidth * 8)) - 1
        let byField = fieldMaximum - (lengthCounts == .frame ? headerSize : 0) - countedTrailerWidth
        return Swift.max(0, Swift.min(maximumPayloadLength, byField))
    }
}
