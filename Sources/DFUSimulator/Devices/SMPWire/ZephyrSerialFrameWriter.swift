import DFUBytes

/// How a Zephyr device cuts an SMP packet into console frames: `mcumgr_serial_tx_pkt`
/// (`subsys/mgmt/mcumgr/transport/src/serial_util.c`), which both its UART and shell transports
/// answer with. The base64 text is the same as `SMPConsoleEncoder` writes; the cut is not:
///
/// - Each frame takes at most `((MCUMGR_SERIAL_MAX_FRAME - 3) >> 2) * 3` = 93 input bytes,
///   base64-encoded 3 at a time. The first frame starts with the big-endian total length
///   (packet + 2) and the packet's first byte, and takes those 3 bytes off the budget for good:
///   continuation frames carry 90 input bytes (123-byte frames).
/// - The CRC is never split: when the rest of the packet fills the budget exactly, or leaves
///   one byte free, one packet byte moves to the next frame with the CRC.
/// - The last group holds the packet's last bytes and the CRC; with two packet bytes left it is
///   `[d0 d1 crc-high]` then `[crc-low]` on its own (`xx==`).
enum ZephyrSerialFrameWriter {
    /// `MCUMGR_SERIAL_MAX_FRAME` (include/zephyr/mgmt/mcumgr/transport/serial.h).
    static let maximumFrame = 127

    /// The frames carrying `packet`, one after the other, as the device writes them.
    static func wireBytes(for packet: [UInt8]) -> [UInt8] {
        guard !packet.isEmpty else { return [] }
        let crc = UInt16(CRCCatalogue.algorithm(named: "CRC-16/XMODEM")!.checksum(packet))
        let crcHigh = UInt8(crc >> 8), crcLow = UInt8(crc & 0xFF)
        var maximumInput = ((maximumFrame - 3) >> 2) * 3
        var output: [UInt8] = []
        var offset = 0
        var first = true
        var last = false
        while offset < packet.count {
            output += first ? SMPConsoleFraming.packetStartMarker : SMPConsoleFraming.continuationMarker
            if first {
                let total = packet.count + 2
                output += Base64.encode([UInt8(total >> 8), UInt8(total & 0xFF), packet[0]])
                offset += 1
                maximumInput -= 3
            }
            var toProcess = min(maximumInput, packet.count - offset)
            let remainder = maximumInput - (packet.count - offset)
            if remainder == 0 || remainder == 1 {
                toProcess -= 1
                last = false
            } else if remainder >= 2 {
                last = true
            }
            while toProcess >= 3 {
                output += Base64.encode(Array(packet[offset..<offset + 3]))
                offset += 3
                toProcess -= 3
            }
            if last {
                switch packet.count - offset {
                case 0:
                    output += Base64.encode([crcHigh, crcLow])
                case 1:
                    output += Base64.encode([packet[offset], crcHigh, crcLow])
                    offset += 1
                default:
                    output += Base64.encode([packet[offset], packet[offset + 1], crcHigh])
                    output += Base64.encode([crcLow])
                    offset += 2
                }
            }
            output.append(SMPConsoleFraming.newline)
            first = false
        }
        return output
    }
}
