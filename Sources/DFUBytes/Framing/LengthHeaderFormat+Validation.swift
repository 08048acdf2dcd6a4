extension LengthHeaderFormat {
    /// Length field widths a format may use, in bytes.
    public static let supportedLengthWidths: Set<Int> = [1, 2, 4]

    /// Checks that the layout is usable: a width of 1, 2 or 4 bytes, a length field wholly
    /// inside the header, and a non-negative payload limit.
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
    }

    /// Whether the header is nothing but the length field, so `frame(payload:)` can build it.
    public var isLengthOnly: Bool { headerSize == lengthWidth && lengthOffset == 0 }

    /// The longest payload this format can carry: `maximumPayloadLength`, further bounded by
    /// the largest value the length field can hold (less the header when it counts the frame).
    public var effectivePayloadLimit: Int {
        let fieldMaximum = lengthWidth >= MemoryLayout<Int>.size ? Int.max : (1 << (lengthWidth * 8)) - 1
        let byField = lengthCounts == .frame ? fieldMaximum - headerSize : fieldMaximum
        return Swift.max(0, Swift.min(maximumPayloadLength, byField))
    }
}
