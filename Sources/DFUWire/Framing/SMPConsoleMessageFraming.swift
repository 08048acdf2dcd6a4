import DFUBytes

/// SMP's console framing on a serial line (`SMPConsoleEncoder`, `SMPConsoleDecoder`): each
/// message in base64 frames of at most `lineLength` bytes; console text between frames (a
/// device whose console also prints logs) comes out as `.text`, never as a message.
public struct SMPConsoleMessageFraming: MessageFraming {
    private let encoder: SMPConsoleEncoder
    private var decoder: SMPConsoleDecoder

    /// Frames of at most `lineLength` bytes sent (at least 16; 127 is Zephyr's). Frames received
    /// may be longer (a device's own line length is its business) up to 64 KiB.
    public init(lineLength: Int = SMPConsoleFraming.defaultLineLength) {
        encoder = (try? SMPConsoleEncoder(lineLength: max(lineLength, 16))) ?? SMPConsoleEncoder()
        decoder = SMPConsoleDecoder(maximumFrameLength: 1 << 16)
    }

    /// `smp-console`.
    public var name: String { "smp-console" }
    /// 65533: the total length field counts the packet and its 2-byte CRC in 16 bits.
    public var largestMessage: Int { SMPConsoleFraming.maximumPacketLength }

    /// The frames that carry `message`, one after the other.
    public func encode(_ message: [UInt8]) throws(FramingRefusal) -> [UInt8] {
        do {
            return try encoder.wireBytes(for: message)
        } catch {
            throw FramingRefusal(error.description)
        }
    }

    /// Packets, console text, and frames that did not decode (with why).
    public mutating func decode(_ bytes: [UInt8]) -> [FramingOutput] {
        decoder.feed(bytes).map { output in
            switch output {
            case let .packet(packet): .message(packet)
            case let .consoleText(text): .text(text)
            case let .discarded(discard): .discarded(discard.description)
            }
        }
    }
}
