/// The constants of SMP over a serial console ("SMP over console"): Zephyr's
/// `doc/services/device_mgmt/smp_transport.rst` (section "UART/serial and console") and
/// `include/zephyr/mgmt/mcumgr/transport/serial.h`, MCUboot's `boot/boot_serial/src/boot_serial.c`
/// and the PyPI package smp's `smp/packet.py`.
///
/// A packet (an SMP message: 8-byte header and CBOR body) travels as the base64 text of
/// `[total length, big-endian u16 = packet + 2] [packet] [CRC-16/XMODEM of the packet, big-endian]`,
/// cut into lines ("frames") of at most 127 bytes: the first starts with `06 09`, the others
/// with `04 14`, each ends with `\n`. `SMPConsoleEncoder` writes them, `SMPConsoleDecoder` reads
/// them out of a console that may print other text between them.
public enum SMPConsoleFraming {
    /// `06 09`, the marker of a packet's first frame (Zephyr's `MCUMGR_SERIAL_HDR_PKT`).
    public static let packetStartMarker: [UInt8] = [0x06, 0x09]
    /// `04 14`, the marker of each further frame (Zephyr's `MCUMGR_SERIAL_HDR_FRAG`).
    public static let continuationMarker: [UInt8] = [0x04, 0x14]
    /// `\n`, which ends every frame.
    public static let newline = UInt8(ascii: "\n")
    /// 127 bytes, marker and newline included: Zephyr's `MCUMGR_SERIAL_MAX_FRAME`, the frames
    /// Zephyr and MCUboot send (124 base64 characters each).
    public static let defaultLineLength = 127
    /// 7 bytes: a marker, one 4-character base64 group and the newline.
    public static let minimumLineLength = 7
    /// 65,533 bytes: the total length field is 16 bits wide and counts the 2-byte CRC.
    public static let maximumPacketLength = 0xFFFF - 2
    /// CRC-16/XMODEM (poly 0x1021, init 0, not reflected): Zephyr's `crc16_itu_t(0x0000, ...)`,
    /// smp's `mkPredefinedCrcFun("xmodem")`.
    static let checksum = CRCCatalogue.algorithm(named: "CRC-16/XMODEM")!

    /// Which of the two markers a frame starts with.
    public enum Marker: Sendable, Hashable {
        /// `06 09`: the frame starts a packet and its text begins with the total length.
        case packetStart
        /// `04 14`: the frame carries more of the packet in progress.
        case continuation

        /// The marker's two bytes.
        public var bytes: [UInt8] {
            self == .packetStart ? SMPConsoleFraming.packetStartMarker : SMPConsoleFraming.continuationMarker
        }

        /// The marker whose first byte is `first` and second `second`, if any.
        init?(_ first: UInt8, _ second: UInt8) {
            switch (first, second) {
            case (0x06, 0x09): self = .packetStart
            case (0x04, 0x14): self = .continuation
            default: return nil
            }
        }
    }
}
