/// The header tag's body (`GblHeader_t`): the GBL format version (its top byte must be 3,
/// `GBL_COMPATIBILITY_MAJOR_VERSION`) and the file type.
public struct GBLHeader: Sendable, Equatable {
    /// `GBL_TYPE_*` bits.
    public struct FileType: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `GBL_TYPE_ENCRYPTION_AESCCM`: the tags after the encryption init are AES-CCM encrypted.
        public static let encrypted = FileType(rawValue: 1 << 0)
        /// `GBL_TYPE_SIGNATURE_ECDSA`: the file ends with an ECDSA P-256 signature tag.
        public static let signed = FileType(rawValue: 1 << 8)
    }

    public var version: UInt32
    public var type: FileType

    /// The only major version bootloaders accept (`parser_parseGblHeader`).
    public static let compatibleMajorVersion: UInt32 = 0x0300_0000

    public init?(_ tag: GBLTag) {
        guard tag.id == .header, tag.body.count == 8, let version = tag.u32(at: 0), let type = tag.u32(at: 4) else {
            return nil
        }
        self.version = version
        self.type = FileType(rawValue: type)
    }

    public var isCompatible: Bool { version & 0xFF00_0000 == Self.compatibleMajorVersion }

    /// "3.0" for 0x03000000.
    public var versionText: String { "\(version >> 24).\(version >> 16 & 0xFF)" }
}
