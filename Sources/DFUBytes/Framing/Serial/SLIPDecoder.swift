/// What `SLIPDecoder.feed(_:)` found in the bytes fed to it.
public enum SLIPDecoderOutput: Sendable, Hashable {
    /// A complete frame's packet, unescaped, without its END.
    case frame([UInt8])
    /// A frame dropped for a bad escape or for its length.
    case discarded(SLIPDiscardedFrame)
}

/// Reads SLIP frames (RFC 1055) out of a serial byte stream, in any split: feeding the stream
/// byte by byte or in pieces of any size gives the same outputs in the same order.
///
/// Pure: no I/O, no clock. A frame is every byte up to END, with `DB DC` read as 0xC0 and
/// `DB DD` as 0xDB, as pc-nrfutil's `Slip.decode_add_byte`
/// (`nordicsemi/dfu/dfu_transport_serial.py`) and the nRF5 SDK's `slip_decode_add_byte`
/// (`components/libraries/slip/slip.c`) read it. Where those two stop short, this decoder
/// recovers sooner:
/// - An empty frame (END right after END, or at the start) is ignored, so a sender that also
///   puts END in front of each frame (RFC 1055's advice) reads the same. nrfutil's host and the
///   SDK's bootloader both hand an empty frame up as a packet.
/// - ESC followed by anything but 0xDC or 0xDD discards the frame at once; the bytes up to the
///   next END are skipped. When that byte is END itself, it ends the bad frame here, whereas
///   nrfutil and the SDK take the END as the bad byte and also lose the frame after it.
/// - A frame longer than `maximumFrameLength` decoded bytes is discarded and skipped up to the
///   next END. The SDK's decoder stops at its buffer's end and, answering `NRF_ERROR_NO_MEM` to
///   every later byte, END included, never recovers.
public struct SLIPDecoder: Sendable {
    /// The most decoded bytes a frame may hold; a longer one is discarded.
    public let maximumFrameLength: Int

    private var state: State
    /// Bytes fed since `init`.
    public private(set) var streamByteCount = 0

    private enum State: Sendable {
        /// Reading a frame whose first byte is at stream offset `start`.
        case frame([UInt8], start: Int)
        /// Reading a frame whose last byte was ESC.
        case escaped([UInt8], start: Int)
        /// Skipping the rest of a discarded frame up to its END.
        case skipping
    }

    /// A decoder that discards frames longer than `maximumFrameLength` decoded bytes. The nRF5
    /// SDK's UART transport takes 131 bytes (`UART_SLIP_MTU`), its USB CDC ACM transport more.
    public init(maximumFrameLength: Int = 4096) {
        precondition(maximumFrameLength >= 0, "a SLIP frame cannot hold \(maximumFrameLength) bytes")
        self.maximumFrameLength = maximumFrameLength
        state = .frame([], start: 0)
    }

    /// Decodes `bytes`, the next piece of the stream, and returns what it completes, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [SLIPDecoderOutput] {
        var outputs: [SLIPDecoderOutput] = []
        for byte in bytes {
            if let output = consume(byte, at: streamByteCount) {
                outputs.append(output)
            }
            streamByteCount += 1
        }
        return outputs
    }

    private mutating func consume(_ byte: UInt8, at offset: Int) -> SLIPDecoderOutput? {
        switch state {
        case .skipping:
            if byte == SLIP.end { state = .frame([], start: offset + 1) }
            return nil
        case .frame(var frame, let start):
            switch byte {
            case SLIP.end:
                state = .frame([], start: offset + 1)
                return frame.isEmpty ? nil : .frame(frame)
            case SLIP.escape:
                state = .escaped(frame, start: start)
                return nil
            default:
                state = .skipping  // drops the state's reference, so that the frame grows in place
                return append(byte, to: &frame, start: start, at: offset)
            }
        case .escaped(var frame, let start):
            state = .skipping
            switch byte {
            case SLIP.escapedEnd:
                return append(SLIP.end, to: &frame, start: start, at: offset)
            case SLIP.escapedEscape:
                return append(SLIP.escape, to: &frame, start: start, at: offset)
            default:
                if byte == SLIP.end { state = .frame([], start: offset + 1) }
                return .discarded(SLIPDiscardedFrame(reason: .badEscape(byte: byte), frameOffset: start, offset: offset))
            }
        }
    }

    /// Adds a decoded byte to the frame and makes it the state again, or discards the frame
    /// (leaving the state `.skipping`) when it would grow past the limit.
    private mutating func append(_ byte: UInt8, to frame: inout [UInt8], start: Int, at offset: Int)
        -> SLIPDecoderOutput? {
        guard frame.count < maximumFrameLength else {
            return .discarded(SLIPDiscardedFrame(reason: .overlong(limit: maximumFrameLength), frameOffset: start,
                                                 offset: offset))
        }
        frame.append(byte)
        state = .frame(frame, start: start)
        return nil
    }
}
