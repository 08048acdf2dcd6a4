/// A Secure DFU control-point opcode (nrf_dfu_req_handler.h `nrf_dfu_op_t`). An open set: an
/// opcode the bootloader does not know is still carried, and answered "opcode not supported".
public struct SecureDFUOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The opcode byte.
    public let rawValue: UInt8
    /// The opcode with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let protocolVersion = SecureDFUOpcode(rawValue: 0x00)
    /// Create an object: type u8, size u32.
    package static let createObject = SecureDFUOpcode(rawValue: 0x01)
    /// Set the packet receipt notification interval: u16.
    package static let setReceiptNotification = SecureDFUOpcode(rawValue: 0x02)
    /// Calculate checksum -> offset u32, CRC32 u32.
    package static let calculateChecksum = SecureDFUOpcode(rawValue: 0x03)
    package static let execute = SecureDFUOpcode(rawValue: 0x04)
    /// Select an object: type u8 -> max size u32, offset u32, CRC32 u32.
    package static let selectObject = SecureDFUOpcode(rawValue: 0x06)
    package static let mtuGet = SecureDFUOpcode(rawValue: 0x07)
    /// `NRF_DFU_OP_OBJECT_WRITE`: what a packet-characteristic write is inside the bootloader.
    package static let objectWrite = SecureDFUOpcode(rawValue: 0x08)
    package static let ping = SecureDFUOpcode(rawValue: 0x09)
    package static let hardwareVersion = SecureDFUOpcode(rawValue: 0x0A)
    /// Firmware Version: the version of an image on the device.
    public static let firmwareVersion = SecureDFUOpcode(rawValue: 0x0B)
    package static let abort = SecureDFUOpcode(rawValue: 0x0C)
    /// The first byte of every response notification.
    public static let response = SecureDFUOpcode(rawValue: 0x60)

    public var description: String {
        let names: [UInt8: String] = [
            0x00: "protocol-version", 0x01: "create", 0x02: "set-prn", 0x03: "checksum", 0x04: "execute",
            0x06: "select", 0x07: "mtu-get", 0x08: "write", 0x09: "ping", 0x0A: "hw-version",
            0x0B: "fw-version", 0x0C: "abort", 0x60: "response",
        ]
        return names[rawValue] ?? "opcode 0x" + String(rawValue, radix: 16, uppercase: true)
    }
}

/// The object a Secure DFU command works on (`nrf_dfu_obj_type_t`).
public struct SecureDFUObjectType: RawRepresentable, Hashable, Sendable {
    /// The object type byte.
    public let rawValue: UInt8
    /// The object type with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// No object (0x00): not a valid type.
    public static let invalid = SecureDFUObjectType(rawValue: 0x00)
    /// The init packet (`.dat`), at most 512 bytes.
    public static let command = SecureDFUObjectType(rawValue: 0x01)
    /// Firmware, in objects of at most 4096 bytes.
    public static let data = SecureDFUObjectType(rawValue: 0x02)
}
