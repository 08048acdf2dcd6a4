import DFUBytes

/// How a device with the buttonless DFU service (nRF5 SDK `ble_dfu_unbonded.c` /
/// `ble_dfu_bonded.c`) hands over to its bootloader.
public enum ButtonlessMode: String, Sendable, CaseIterable {
    /// Characteristic 8EC90003: no bond sharing; the bootloader advertises on the
    /// application's address + 1.
    case unbonded
    /// Characteristic 8EC90004: bonds are shared; the bootloader keeps the address.
    case bonded
}

/// A buttonless-service opcode (`ble_dfu_buttonless_op_code_t`).
public struct ButtonlessOpcode: RawRepresentable, Hashable, Sendable {
    /// The opcode byte.
    public let rawValue: UInt8
    /// The opcode with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let enterBootloader = ButtonlessOpcode(rawValue: 0x01)
    /// Set the bootloader's advertising name: length u8, then the name (unbonded only).
    package static let setAdvertisementName = ButtonlessOpcode(rawValue: 0x02)
    /// The first byte of every response.
    public static let response = ButtonlessOpcode(rawValue: 0x20)
}

/// A buttonless-service response code (`ble_dfu_buttonless_rsp_code_t`).
public struct ButtonlessResult: RawRepresentable, Hashable, Sendable {
    /// The response code byte.
    public let rawValue: UInt8
    /// The response code with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The request succeeded.
    public static let success = ButtonlessResult(rawValue: 0x01)
    package static let opcodeNotSupported = ButtonlessResult(rawValue: 0x02)
    package static let operationFailed = ButtonlessResult(rawValue: 0x04)
    package static let invalidAdvertisementName = ButtonlessResult(rawValue: 0x05)
    /// The device is busy with an earlier request.
    public static let busy = ButtonlessResult(rawValue: 0x06)
    package static let notBonded = ButtonlessResult(rawValue: 0x07)
}

/// The application side of buttonless DFU: answers `20 <op> <result>` (an indication on the
/// real device) and says whether the application now resets into its bootloader.
struct ButtonlessDFUService {
    static let maximumNameLength = 20

    let mode: ButtonlessMode

    struct Outcome: Equatable {
        var response: [UInt8]
        var enterBootloader = false
        var newBootloaderName: String?
    }

    func receive(_ value: [UInt8]) -> Outcome? {
        guard let first = value.first else { return nil }
        let opcode = ButtonlessOpcode(rawValue: first)
        func answer(_ result: ButtonlessResult) -> [UInt8] { [ButtonlessOpcode.response.rawValue, first, result.rawValue] }
        switch opcode {
        case .enterBootloader:
            return Outcome(response: answer(.success), enterBootloader: true)
        case .setAdvertisementName where mode == .unbonded:
            guard value.count >= 2, value[1] >= 1, Int(value[1]) <= Self.maximumNameLength,
                  value.count == 2 + Int(value[1]) else {
                return Outcome(response: answer(.invalidAdvertisementName))
            }
            return Outcome(response: answer(.success), newBootloaderName: String(decoding: value[2...], as: UTF8.self))
        default:
            return Outcome(response: answer(.opcodeNotSupported))
        }
    }
}
