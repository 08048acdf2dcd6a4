/// Why `SMPConsoleEncoder` refused a line length or a packet.
public enum SMPConsoleEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line of `lineLength` bytes cannot hold a marker, a 4-character base64 group and the
    /// newline (7 bytes).
    case lineLengthTooShort(lineLength: Int)
    /// A packet of `length` bytes does not fit the 16-bit total length (at most 65,533 bytes).
    case packetTooLong(length: Int)

    /// Says what was refused and what would do.
    public var description: String {
        switch self {
        case let .lineLengthTooShort(lineLength):
            return "an SMP console line of \(lineLength) bytes is too short: it needs at least "
                + "\(SMPConsoleFraming.minimumLineLength) (2-byte marker, 4 base64 characters, newline)"
        case let .packetTooLong(length):
            return "an SMP packet of \(length) bytes does not fit the console framing's 16-bit length; "
                + "at most \(SMPConsoleFraming.maximumPacketLength) bytes"
        }
    }
}

/// Frames SMP packets for a serial console, byte for byte as smp 4.2.0's `smp.packet.encode`
/// (which smpclient sends requests with) does, and at the default 127-byte line as MCUboot's
/// `boot_serial_output` (`boot/boot_serial/src/boot_serial.c`, which serial recovery answers
/// with: `BOOT_SERIAL_FRAME_MTU` 124 base64 characters a frame) does.
///
/// The packet, with its big-endian total length in front and its CRC-16/XMODEM behind, is
/// base64-encoded as one text; that text is cut every `base64CharactersPerFrame` characters, a
/// multiple of 4, so each frame's text is whole base64 on its own (receivers decode frame by
/// frame: Zephyr's `mcumgr_serial_process_frag`, MCUboot's `boot_serial_in_dec`, smp's `decode`).
///
/// `lineLength` is the longest frame, marker and newline included (Zephyr's
/// `MCUMGR_SERIAL_MAX_FRAME`, 127). smp's `encode(request, line_length)` reserves one byte more
/// (`LINE_LENGTH_SUBTRACTOR = 4`), so its `line_length` is this `lineLength + 1`: smpclient's
/// default 128 sends 127-byte frames, which `SMPConsoleEncoder()` writes too; smp's own default
/// 127 sends 123-byte frames, `SMPConsoleEncoder(lineLength: 126)` here.
///
/// Zephyr's device side (`mcumgr_serial_tx_pkt` in `subsys/mgmt/mcumgr/transport/src/serial_util.c`)
/// cuts the same text differently, whatever line length the host uses: a first frame of at
/// most 127 bytes, continuation frames of at most 123 (the 3 bytes its first frame takes off
/// the input budget are never given back), and it never splits the CRC across two frames (it
/// moves packet bytes into the last frame instead). Every receiver above decodes either cut;
/// `SMPConsoleDecoder` does too.
public struct SMPConsoleEncoder: Sendable, Hashable {
    /// The longest frame this encoder writes, marker and newline included.
    public let lineLength: Int

    /// An encoder of 127-byte frames, as Zephyr, MCUboot and smpclient send.
    public init() {
        lineLength = SMPConsoleFraming.defaultLineLength
    }

    /// An encoder of frames of at most `lineLength` bytes; at least 7.
    public init(lineLength: Int) throws(SMPConsoleEncodingError) {
        guard lineLength >= SMPConsoleFraming.minimumLineLength else {
            throw .lineLengthTooShort(lineLength: lineLength)
        }
        self.lineLength = lineLength
    }

    /// Base64 characters in each frame but the last: what fits between marker and newline,
    /// rounded down to a whole number of 4-character groups (124 for 127-byte lines).
    public var base64CharactersPerFrame: Int {
        (lineLength - 3) / 4 * 4
    }

    /// The frames that carry `packet`, each with its marker and newline.
    public func frames(for packet: [UInt8]) throws(SMPConsoleEncodingError) -> [[UInt8]] {
        guard packet.count <= SMPConsoleFraming.maximumPacketLength else {
            throw .packetTooLong(length: packet.count)
        }
        let totalLength = packet.count + 2
        let crc = UInt16(SMPConsoleFraming.checksum.checksum(packet))
        let framed = [UInt8(totalLength >> 8), UInt8(totalLength & 0xFF)] + packet + [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        let text = Base64.encode(framed)
        return stride(from: 0, to: text.count, by: base64CharactersPerFrame).map { start in
            let marker = start == 0 ? SMPConsoleFraming.Marker.packetStart : .continuation
            let end = min(start + base64CharactersPerFrame, text.count)
            return marker.bytes + text[start..<end] + [SMPConsoleFraming.newline]
        }
    }

    /// The frames that carry `packet`, one after the other, as they go on the line.
    public func wireBytes(for packet: [UInt8]) throws(SMPConsoleEncodingError) -> [UInt8] {
        try frames(for: packet).flatMap { $0 }
    }
}
