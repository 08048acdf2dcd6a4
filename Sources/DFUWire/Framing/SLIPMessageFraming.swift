import DFUBytes

/// SLIP (RFC 1055) as Nordic's serial DFU uses it (`SLIPEncoder`, `SLIPDecoder`): each message
/// escaped and ended with END `C0`, as pc-nrfutil sends them.
public struct SLIPMessageFraming: MessageFraming {
    private let encoder = SLIPEncoder()
    private var decoder = SLIPDecoder(maximumFrameLength: 1 << 16)

    /// A SLIP framing.
    public init() {}

    /// `slip`.
    public var name: String { "slip" }
    /// 64 KiB: SLIP itself has no limit; the device's buffer (`buffer=`) is the real one.
    public var largestMessage: Int { 1 << 16 }

    /// The message escaped, then END.
    public func encode(_ message: [UInt8]) throws(FramingRefusal) -> [UInt8] {
        encoder.encode(message)
    }

    /// Frames, and frames dropped for a bad escape or their length.
    public mutating func decode(_ bytes: [UInt8]) -> [FramingOutput] {
        decoder.feed(bytes).map { output in
            switch output {
            case let .frame(frame): .message(frame)
            case let .discarded(discard): .discarded(discard.description)
            }
        }
    }
}
