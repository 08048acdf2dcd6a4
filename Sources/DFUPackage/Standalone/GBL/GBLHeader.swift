/// The header tag's body (`GblHeader_t`): the GBL format version (its top byte must be 3,
/// `GBL_COMPATIBILITY_MAJOR_VERSION`) and the file type.
public struct GBLHeader: Sendable, Equatable {
    /// `GBL_TYPE_*` bits.
    public struct FileType: OptionSet, Sendable, Hashable {
        /// The `GBL_TYPE_*` bits.
        public let rawValue: UInt32
        /// The file type of these bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `GBL_TYPE_ENCRYPTION_AESCCM`: the tags after the encryption init are AES-CCM encrypted.
        package static let encrypted = FileType(rawValue: 1 << 0)
        /// `GBL_TYPE_SIGNATURE_ECDSA`: the file ends with an ECDSA P-256 signature tag.
        public static let signed = FileType(rawValue: 1 << 8)
    }

    /// The GBL format version: major in the top byte, minor in the next (0x03000000 is 3.0).
    public var version: UInt32
    /// What the file carries: encryption, a signature.
    public var type: FileType

    /// The only major version bootloaders accept (`parser_parseGblHeader`).
    package static let compatibleMajorVersion: UInt32 = 0x0300_0000

    /// The header in `tag`; nil unless it is a header tag of 8 bytes.
    public init?(_ tag: GBLTag) {
        guard tag.id == .header, tag.body.count == 8, let version = tag.u32(at: 0), let type = tag.u32(at: 4) else {
            return nil
        }
        self.version = version
        self.type = FileType(rawValue: type)
    }

    package var isCompatible: Bool { version & 0xFF00_0000 == Self.compatibleMajorVersion }

    /// "3.0" for 0x03000000.
    package var versionText: String { "\(version >> 24).\(version >> 16 & 0xFF)" }
}
