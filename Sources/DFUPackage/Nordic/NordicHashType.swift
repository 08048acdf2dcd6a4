/// `Hash.hash_type` in dfu-cc.proto (`HashType`). Secure DFU bootloaders accept SHA-256 only.
/// An open set: a value this code does not know is kept and printed by number.
public struct NordicHashType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `HashType` value.
    public let rawValue: Int32
    /// The type with this value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `NO_HASH`.
    public static let none = NordicHashType(rawValue: 0)
    /// `CRC`.
    public static let crc = NordicHashType(rawValue: 1)
    /// `SHA128`.
    package static let sha128 = NordicHashType(rawValue: 2)
    /// `SHA256`: the only type nRF5 SDK bootloaders accept.
    public static let sha256 = NordicHashType(rawValue: 3)
    /// `SHA512`.
    package static let sha512 = NordicHashType(rawValue: 4)

    /// The name in dfu-cc.proto, or `unknown(N)`.
    public var name: String {
        switch self {
        case .none: return "NO_HASH"
        case .crc: return "CRC"
        case .sha128: return "SHA128"
        case .sha256: return "SHA256"
        case .sha512: return "SHA512"
        default: return "unknown(\(rawValue))"
        }
    }

    public var description: String { name }
}
