/// A Secure DFU result code, the third byte of a response (`nrf_dfu_result_t`). An open set: a
/// code this simulator never sends can still be named by number.
public struct SecureDFUResult: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let invalidCode = SecureDFUResult(rawValue: 0x00)
    public static let success = SecureDFUResult(rawValue: 0x01)
    public static let opcodeNotSupported = SecureDFUResult(rawValue: 0x02)
    /// Missing or invalid parameter value.
    public static let invalidParameter = SecureDFUResult(rawValue: 0x03)
    /// Not enough memory for the object (or the image).
    public static let insufficientResources = SecureDFUResult(rawValue: 0x04)
    /// The object is invalid (bad type, undecodable init packet, bad signature).
    public static let invalidObject = SecureDFUResult(rawValue: 0x05)
    public static let unsupportedType = SecureDFUResult(rawValue: 0x07)
    /// The state does not allow the operation (wrong size, no init packet yet, ...).
    public static let operationNotPermitted = SecureDFUResult(rawValue: 0x08)
    public static let operationFailed = SecureDFUResult(rawValue: 0x0A)
    /// An extended error follows as the fourth byte.
    public static let extendedError = SecureDFUResult(rawValue: 0x0B)

    public var description: String {
        let names: [UInt8: String] = [
            0x00: "invalid code", 0x01: "success", 0x02: "opcode not supported", 0x03: "invalid parameter",
            0x04: "insufficient resources", 0x05: "invalid object", 0x07: "unsupported type",
            0x08: "operation not permitted", 0x0A: "operation failed", 0x0B: "extended error",
        ]
        return names[rawValue] ?? "result 0x" + String(rawValue, radix: 16, uppercase: true)
    }
}

/// The byte after `0x0B` in an extended-error response (`nrf_dfu_ext_error_code_t`).
public struct SecureDFUExtendedError: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let noError = SecureDFUExtendedError(rawValue: 0x00)
    public static let invalidErrorCode = SecureDFUExtendedError(rawValue: 0x01)
    public static let wrongCommandFormat = SecureDFUExtendedError(rawValue: 0x02)
    public static let unknownCommand = SecureDFUExtendedError(rawValue: 0x03)
    /// The init command is invalid: bad type, no hardware version, no size, missing version.
    public static let initCommandInvalid = SecureDFUExtendedError(rawValue: 0x04)
    /// The firmware version is too low (downgrade).
    public static let firmwareVersionFailure = SecureDFUExtendedError(rawValue: 0x05)
    public static let hardwareVersionFailure = SecureDFUExtendedError(rawValue: 0x06)
    public static let softDeviceVersionFailure = SecureDFUExtendedError(rawValue: 0x07)
    /// The bootloader requires a signature and the init packet has none.
    public static let signatureMissing = SecureDFUExtendedError(rawValue: 0x08)
    /// The hash type is not SHA-256.
    public static let wrongHashType = SecureDFUExtendedError(rawValue: 0x09)
    /// The hash of the image could not be calculated.
    public static let hashFailed = SecureDFUExtendedError(rawValue: 0x0A)
    public static let wrongSignatureType = SecureDFUExtendedError(rawValue: 0x0B)
    /// The hash of the received image does not match the init packet's.
    public static let verificationFailed = SecureDFUExtendedError(rawValue: 0x0C)
    public static let insufficientSpace = SecureDFUExtendedError(rawValue: 0x0D)

    public var description: String {
        let names: [UInt8: String] = [
            0x00: "no error", 0x01: "invalid error code", 0x02: "wrong command format", 0x03: "unknown command",
            0x04: "init command invalid", 0x05: "firmware version failure", 0x06: "hardware version failure",
            0x07: "SoftDevice version failure", 0x08: "signature missing", 0x09: "wrong hash type",
            0x0A: "hash failed", 0x0B: "wrong signature type", 0x0C: "verification failed",
            0x0D: "insufficient space",
        ]
        return names[rawValue] ?? "extended error 0x" + String(rawValue, radix: 16, uppercase: true)
    }
}

/// The outcome of one request: a result, or an extended error (sent as `0B <code>`).
public enum SecureDFUOutcome: Hashable, Sendable {
    case result(SecureDFUResult)
    case extended(SecureDFUExtendedError)

    public static let success = SecureDFUOutcome.result(.success)

    public var isSuccess: Bool { self == .success }
}
