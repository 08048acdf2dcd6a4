/// `BootValidation.type` in dfu-cc.proto (`ValidationType`): how the bootloader checks the image
/// at every boot. An open set: a value this code does not know is kept and printed by number.
public struct NordicValidationType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `ValidationType` value.
    public let rawValue: Int32
    /// The type with this value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `NO_VALIDATION`.
    public static let none = NordicValidationType(rawValue: 0)
    /// `VALIDATE_GENERATED_CRC`: the bootloader computes and stores a CRC after the update.
    package static let generatedCRC = NordicValidationType(rawValue: 1)
    /// `VALIDATE_SHA256`: `bytes` is the image's SHA-256.
    public static let sha256 = NordicValidationType(rawValue: 2)
    /// `VALIDATE_ECDSA_P256_SHA256`: `bytes` is a signature over the image.
    package static let ecdsaP256SHA256 = NordicValidationType(rawValue: 3)

    /// The name in dfu-cc.proto, or `unknown(N)`.
    public var name: String {
        switch self {
        case .none: return "NO_VALIDATION"
        case .generatedCRC: return "VALIDATE_GENERATED_CRC"
        case .sha256: return "VALIDATE_SHA256"
        case .ecdsaP256SHA256: return "VALIDATE_ECDSA_P256_SHA256"
        default: return "unknown(\(rawValue))"
        }
    }

    public var description: String { name }
}
