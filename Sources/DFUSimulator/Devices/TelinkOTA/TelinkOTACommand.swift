/// The first two bytes of a write to Telink's OTA characteristic, little-endian: a data packet's
/// index (0...0xFEFF), or a command (>= 0xFF00). Open: any value prints.
///
/// Numbers from the Telink BLE SDK's `stack/ble/service/ota/ota.h`
/// (telink_b85m_ble_single_connection_sdk); fwupd's `fu-telink-dfu.rs` `FuTelinkDfuCmd` names
/// 0xFF00...0xFF02 the same and sends nothing else.
package struct TelinkOTACommand: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `CMD_OTA_VERSION`: calls the application's version callback; no answer.
    package static let version = Self(rawValue: 0xFF00)
    /// `CMD_OTA_START`: starts an OTA of 16-byte packets.
    package static let start = Self(rawValue: 0xFF01)
    /// `CMD_OTA_END`: the last packet's index and its complement follow.
    package static let end = Self(rawValue: 0xFF02)
    /// `CMD_OTA_START_EXT`: start with another packet length (16n) and a version compare.
    package static let startExtended = Self(rawValue: 0xFF03)
    /// `CMD_OTA_FW_VERSION_REQ`.
    package static let versionRequest = Self(rawValue: 0xFF04)
    /// `CMD_OTA_FW_VERSION_RSP` (device to client).
    package static let versionResponse = Self(rawValue: 0xFF05)
    /// `CMD_OTA_RESULT` (device to client): the result byte.
    package static let result = Self(rawValue: 0xFF06)

    /// Values from here up are commands; below, data packet indexes.
    package static let firstCommand: UInt16 = 0xFF00

    package var isCommand: Bool { rawValue >= Self.firstCommand }

    package var name: String {
        switch self {
        case .version: return "version"
        case .start: return "start"
        case .end: return "end"
        case .startExtended: return "start-extended"
        case .versionRequest: return "version-request"
        case .versionResponse: return "version-response"
        case .result: return "result"
        default: return isCommand ? "unknown command" : "data"
        }
    }

    package var description: String {
        let digits = String(rawValue, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits + " (\(name))"
    }
}
