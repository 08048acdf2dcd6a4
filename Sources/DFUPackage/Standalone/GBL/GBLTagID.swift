/// A GBL tag's 32-bit identifier (little-endian in the file), as Silicon Labs' bootloader names
/// it (gecko_sdk `platform/bootloader/parser/gbl/btl_gbl_format.h`, `GBL_TAG_ID_*`). An open
/// set: an identifier not listed is still read and shown by number.
public struct GBLTagID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The tag's 32-bit id as it is in the file.
    public let rawValue: UInt32

    /// The tag id with this value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `GBL_TAG_ID_HEADER_V3`: GBL version and type (encrypted, signed); always the first tag.
    public static let header = GBLTagID(rawValue: 0x03A6_17EB)
    /// `GBL_TAG_ID_VERSION_DEPENDENCY`: versions the target must have (newer SDKs).
    package static let versionDependency = GBLTagID(rawValue: 0x76A6_17EB)
    /// `GBL_TAG_ID_ENC_INIT`: AES-CCM message length and nonce.
    package static let encryptionInit = GBLTagID(rawValue: 0xFA06_06FA)
    /// `GBL_TAG_ID_APPLICATION`: the application's `ApplicationData_t` (type, version...).
    public static let application = GBLTagID(rawValue: 0xF40A_0AF4)
    /// `GBL_TAG_ID_SE_UPGRADE`: a Secure Engine firmware upgrade.
    package static let seUpgrade = GBLTagID(rawValue: 0x5EA6_17EB)
    /// `GBL_TAG_ID_BOOTLOADER`: a bootloader upgrade.
    package static let bootloader = GBLTagID(rawValue: 0xF509_09F5)
    /// `GBL_TAG_ID_PROG`: program data at a flash address.
    public static let program = GBLTagID(rawValue: 0xFE01_01FE)
    /// `GBL_TAG_ID_ERASEPROG`: erase, then program (what Simplicity Commander 1v25 writes).
    package static let eraseProgram = GBLTagID(rawValue: 0xFD03_03FD)
    /// `GBL_TAG_ID_PROG_LZ4`: program data compressed with LZ4.
    package static let programLZ4 = GBLTagID(rawValue: 0xFD05_05FD)
    /// `GBL_TAG_ID_PROG_LZMA`: program data compressed with LZMA.
    package static let programLZMA = GBLTagID(rawValue: 0xFD07_07FD)
    /// Delta upgrades of newer SDKs (named by third-party GBL readers; not in Gecko SDK 4.4).
    package static let delta = GBLTagID(rawValue: 0xF80A_0AF8)
    package static let deltaLZ4 = GBLTagID(rawValue: 0xF80B_0BF8)
    package static let deltaLZMA = GBLTagID(rawValue: 0xF80C_0CF8)
    /// `GBL_TAG_ID_METADATA`: bytes the bootloader hands to the application.
    package static let metadata = GBLTagID(rawValue: 0xF608_08F6)
    /// `GBL_TAG_ID_ENC_GBL_DATA`: encrypted tags.
    package static let encryptedData = GBLTagID(rawValue: 0xF907_07F9)
    /// `GBL_TAG_ID_CERTIFICATE_ECDSA_P256`: the certificate the signature is checked with.
    package static let certificate = GBLTagID(rawValue: 0xF30B_0BF3)
    /// `GBL_TAG_ID_SIGNATURE_ECDSA_P256`: r and s of an ECDSA P-256 signature.
    public static let signature = GBLTagID(rawValue: 0xF70A_0AF7)
    /// `GBL_TAG_ID_END`: the CRC-32 of the file up to and including this tag's header.
    public static let end = GBLTagID(rawValue: 0xFC04_04FC)

    static let known: [GBLTagID: (name: String, order: Int, once: Bool)] = [
        .header: ("header", 1, true),
        .versionDependency: ("version dependency", 2, false),
        .encryptionInit: ("encryption init", 4, true),
        .application: ("application", 5, true),
        .seUpgrade: ("SE upgrade", 6, true),
        .bootloader: ("bootloader", 7, true),
        .program: ("program data", 8, false),
        .eraseProgram: ("erase & program data", 8, false),
        .programLZ4: ("program data (LZ4)", 8, false),
        .programLZMA: ("program data (LZMA)", 8, false),
        .delta: ("delta", 8, false),
        .deltaLZ4: ("delta (LZ4)", 8, false),
        .deltaLZMA: ("delta (LZMA)", 8, false),
        .metadata: ("metadata", 8, false),
        .encryptedData: ("encrypted data", 9, false),
        .certificate: ("certificate", 10, true),
        .signature: ("signature", 11, true),
        .end: ("end", 12, true),
    ]

    /// What the tag is ("application"), or nil for an identifier this reader does not know.
    public var name: String? { Self.known[self]?.name }

    /// Where the tag must come (`GBL_TAG_ORDER_*`): no tag may follow one of a higher order, and
    /// tags that may appear once (`GBL_TAG_FLAG_SINGLE_OCCURRENCE_ONLY`) also bar their own
    /// order afterwards (`btl_gbl_parser.c` `parser_parseNewTagHeader`). Nil when unknown.
    var order: Int? { Self.known[self]?.order }
    var occursOnce: Bool { Self.known[self]?.once ?? false }

    /// Tags carrying data for flash.
    var isProgramData: Bool {
        [.program, .eraseProgram, .programLZ4, .programLZMA, .delta, .deltaLZ4, .deltaLZMA].contains(self)
    }

    public var description: String {
        let number = GBLApplicationData.hex(rawValue)
        return name.map { "\($0) (\(number))" } ?? "unknown tag \(number)"
    }
}
