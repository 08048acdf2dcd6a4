/// What `SMPConsoleDecoder.feed(_:)` found in the bytes fed to it.
public enum SMPConsoleOutput: Sendable, Hashable {
    /// A whole SMP packet (header and body), its total length and CRC checked and removed.
    case packet([UInt8])
    /// Console text that is not an SMP frame: a line without its `\n` (and `\r`), or the start of
    /// a line that a frame marker interrupted (a shell prompt), decoded as UTF-8 (invalid
    /// sequences become U+FFFD).
    case consoleText(String)
    /// A frame, or a packet in progress, that was dropped.
    case discarded(SMPConsoleDiscard)
}

/// Reads SMP packets out of a serial console stream (see `SMPConsoleFraming`), in any split:
/// feeding the stream byte by byte or in pieces of any size gives the same outputs in the same
/// order.
///
/// Pure: no I/O, no clock. A frame starts at a marker, `06 09` or `04 14`, and ends at the next
/// `\n` (a `\r` before it is dropped); its text is base64-decoded on its own and the packet
/// assembled across frames, as Zephyr's `mcumgr_serial_process_frag`
/// (`subsys/mgmt/mcumgr/transport/src/serial_util.c`), MCUboot's `boot_serial_in_dec` and smp's
/// `smp.packet.decode` do.
///
/// Text between frames is reported as `.consoleText` and does not disturb a packet spread over
/// several frames: Zephyr behaves the same. Its dedicated UART transport (`smp_uart.c` over the
/// `uart_mcumgr` driver) cuts the input into lines and `mcumgr_serial_process_frag` ignores a
/// line with neither marker, keeping the packet in progress; its shell transport (`smp_shell.c`)
/// hands such bytes to the shell. A marker is recognised anywhere in a line, not only at its
/// start, as smpclient's `SMPSerialTransport` does, so that a frame printed right after a prompt
/// with no newline (`uart:~$ `) is still read; Zephyr's device side, which only receives frames
/// from a host, looks at the start of a line.
///
/// The same decoder serves both ends: a host reads device responses, a simulated device reads
/// host requests. Zephyr's device sends 127-byte frames whatever the host sends
/// (`MCUMGR_SERIAL_MAX_FRAME`) and receives lines up to `CONFIG_UART_MCUMGR_RX_BUF_SIZE` (128 by
/// default); hosts such as smpclient may be set to send longer lines to a device built for them
/// (MCUboot's `MCUBOOT_SERIAL_MAX_RECEIVE_SIZE`), so set `maximumFrameLength` to what the sender
/// is allowed.
public struct SMPConsoleDecoder: Sendable {
    /// The longest frame accepted, marker and newline included; a longer one is discarded.
    public let maximumFrameLength: Int
    /// The longest console text kept as one `.consoleText`; a longer line comes in pieces.
    public let maximumTextLineLength: Int
    /// The longest packet accepted (total length less the CRC).
    public var maximumPacketLength: Int { assembler.maximumPacketLength }
    /// Bytes fed since `init`.
    public private(set) var streamByteCount = 0

    private var line: LineState = .text([])
    private var assembler: SMPConsolePacketAssembler

    private enum LineState: Sendable {
        /// Console text of the current line so far.
        case text([UInt8])
        /// A frame: its marker at stream offset `start`, then `text`, the bytes after it.
        case frame(SMPConsoleFraming.Marker, text: [UInt8], start: Int)
        /// The rest of an over-long frame, skipped up to its newline.
        case skippingFrame
    }

    /// A decoder that accepts frames of at most `maximumFrameLength` bytes (127, at least 7) and
    /// packets of at most `maximumPacketLength` bytes, and reports console text in lines of at
    /// most `maximumTextLineLength` bytes (at least 1).
    public init(maximumFrameLength: Int = SMPConsoleFraming.defaultLineLength,
                maximumPacketLength: Int = SMPConsoleFraming.maximumPacketLength,
                maximumTextLineLength: Int = 1024) {
        precondition(maximumFrameLength >= SMPConsoleFraming.minimumLineLength,
                     "an SMP console frame needs at least 7 bytes, not \(maximumFrameLength)")
        precondition(maximumPacketLength >= 0, "a packet cannot hold \(maximumPacketLength) bytes")
        precondition(maximumTextLineLength >= 1, "a text line of \(maximumTextLineLength) bytes holds nothing")
        self.maximumFrameLength = maximumFrameLength
        self.maximumTextLineLength = maximumTextLineLength
        assembler = SMPConsolePacketAssembler(maximumPacketLength: maximumPacketLength)
    }

    /// Decodes `bytes`, the next piece of the stream, and returns what it completes, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [SMPConsoleOutput] {
        var outputs: [SMPConsoleOutput] = []
        for byte in bytes {
            consume(byte, at: streamByteCount, into: &outputs)
            streamByteCount += 1
        }
        return outputs
    }

    private mutating func consume(_ byte: UInt8, at offset: Int, into outputs: inout [SMPConsoleOutput]) {
        let newline = SMPConsoleFraming.newline
        switch line {
        case .skippingFrame:
            if byte == newline { line = .text([]) }
        case .frame(let marker, var text, let start):
            line = .skippingFrame  // drops the state's copy, so that the text grows in place
            if byte == newline {
                if text.last == UInt8(ascii: "\r") { text.removeLast() }
                line = .text([])
                outputs += assembler.frame(marker, text: text[...], at: start)
            } else if 2 + text.count + 2 > maximumFrameLength {
                // This byte and the newline still to come would make the frame too long.
                outputs += assembler.overlongFrame(marker, limit: maximumFrameLength, at: start)
            } else {
                text.append(byte)
                line = .frame(marker, text: text, start: start)
            }
        case .text(var text):
            line = .skippingFrame
            if byte == newline {
                if text.last == UInt8(ascii: "\r") { text.removeLast() }
                line = .text([])
                outputs.append(.consoleText(String(decoding: text, as: UTF8.self)))
            } else if let last = text.last, let marker = SMPConsoleFraming.Marker(last, byte) {
                text.removeLast()
                if !text.isEmpty { outputs.append(.consoleText(String(decoding: text, as: UTF8.self))) }
                line = .frame(marker, text: [], start: offset - 1)
            } else {
                text.append(byte)
                // Past the limit, hand the text on, but keep a last byte that may start a marker.
                let kept = text.last == 0x06 || text.last == 0x04 ? 1 : 0
                if text.count >= maximumTextLineLength, text.count > kept {
                    outputs.append(.consoleText(String(decoding: text.dropLast(kept), as: UTF8.self)))
                    text.removeFirst(text.count - kept)
                }
                line = .text(text)
            }
        }
    }
}
