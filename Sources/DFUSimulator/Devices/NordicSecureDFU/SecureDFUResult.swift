/// A Secure DFU result code, the third byte of a response (`nrf_dfu_result_t`). An open set: a
/// code this simulator never sends can still be named by number.
public struct SecureDFUResult: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The result code byte.
    public let rawValue: UInt8
    /// The result with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let invalidCode = SecureDFUResult(rawValue: 0x00)
    /// The request succeeded (0x01).
    public static let success = SecureDFUResult(rawValue: 0x01)
    package static let opcodeNotSupported = SecureDFUResult(rawValue: 0x02)
    /// Missing or invalid parameter value.
    package static let invalidParameter = SecureDFUResult(rawValue: 0x03)
    /// Not enough memory for the object (or the image).
    package static let insufficientResources = SecureDFUResult(rawValue: 0x04)
    /// The object is invalid (bad type, undecodable init packet, bad signature).
    package static let invalidObject = SecureDFUResult(rawValue: 0x05)
    package static let unsupportedType = SecureDFUResult(rawValue: 0x07)
    /// The state does not allow the operation (wrong size, no init packet yet, ...).
    package static let operationNotPermitted = SecureDFUResult(rawValue: 0x08)
    package static let operationFailed = SecureDFUResult(rawValue: 0x0A)
    /// An extended error follows as the fourth byte.
    package static let extendedError = SecureDFUResult(rawValue: 0x0B)

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
    /// The extended error code byte.
    public let rawValue: UInt8
    /// The extended error with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let noError = SecureDFUExtendedError(rawValue: 0x00)
    package static let invalidErrorCode = SecureDFUExtendedError(rawValue: 0x01)
    package static let wrongCommandFormat = SecureDFUExtendedError(rawValue: 0x02)
    package static let unknownCommand = SecureDFUExtendedError(rawValue: 0x03)
    /// The init command is invalid: bad type, no hardware version, no size, missing version.
    package static let initCommandInvalid = SecureDFUExtendedError(rawValue: 0x04)
    /// The firmware version is too low (downgrade).
    package static let firmwareVersionFailure = SecureDFUExtendedError(rawValue: 0x05)
    package static let hardwareVersionFailure = SecureDFUExtendedError(rawValue: 0x06)
    package static let softDeviceVersionFailure = SecureDFUExtendedError(rawValue: 0x07)
    /// The bootloader requires a signature and the init packet has none.
    package static let signatureMissing = SecureDFUExtendedError(rawValue: 0x08)
    /// The hash type is not SHA-256.
    package static let wrongHashType = SecureDFUExtendedError(rawValue: 0x09)
    /// The hash of the image could not be calculated.
    package static let hashFailed = SecureDFUExtendedError(rawValue: 0x0A)
    package static let wrongSignatureType = SecureDFUExtendedError(rawValue: 0x0B)
    /// The hash of the received image does not match the init packet's.
    package static let verificationFailed = SecureDFUExtendedError(rawValue: 0x0C)
    package static let insufficientSpace = SecureDFUExtendedError(rawValue: 0x0D)

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
    /// A result code.
    case result(SecureDFUResult)
    /// Result 0x0B followed by an extended error code.
    case extended(SecureDFUExtendedError)

    /// The request succeeded.
    public static let success = SecureDFUOutcome.result(.success)

    package var isSuccess: Bool { self == .success }
}
