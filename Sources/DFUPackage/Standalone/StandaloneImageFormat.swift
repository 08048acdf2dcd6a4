/// A firmware format that is one image file of its own (not a zip), recognized by its first
/// bytes: a Silicon Labs GBL file, a TI OAD image, a Renesas/Dialog SUOTA image, a Telink
/// binary... Each format reads its own integrity checks (tags, header CRCs) and what `package
/// inspect` shows; `FirmwarePackage.open` tries every format in `StandaloneImageFormats.all`.
public protocol StandaloneImageFormat: Sendable {
    /// The format's name in reports ("silabs-gbl").
    static var name: String { get }
    /// What a person calls it ("Silicon Labs GBL file (AN1085)").
    static var description: String { get }
    /// The profile that flashes it.
    static var profile: String { get }
    /// Whether a file named `path` whose first bytes are `head` (up to 64) is one.
    static func recognizes(head: [UInt8], path: String) -> Bool
    /// Reads the whole file: its checks (passed or failed: a damaged file is still read, so
    /// that `inspect` shows the damage), its version and what to show. Throws only when the
    /// bytes cannot be this format at all.
    static func read(_ bytes: [UInt8], path: String) throws(PackageError) -> StandaloneImage
}

/// What a standalone format found in a file.
public struct StandaloneImage: Sendable, Equatable {
    /// One line `package inspect` shows ("tag 0xEB17A603 header: version 3.0").
    public struct Detail: Sendable, Equatable {
        /// What the line is about ("header", "tag 0xEB17A603").
        public var key: String
        /// What the file says about it.
        public var value: String

        /// The line `key: value`.
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// A signature the file carries, for `dfukit package verify --key` / `flash --key`.
    public struct Signature: Sendable, Equatable {
        /// The signature scheme; the raw value is how reports name it.
        public enum Algorithm: String, Sendable, Equatable {
            /// ECDSA P-256 over SHA-256(`message`); `signature` is r || s (IEEE P1363).
            case ecdsaP256 = "ECDSA P-256"
        }

        /// How the file is signed.
        public var algorithm: Algorithm
        /// The bytes signed, as the device hashes them.
        public var message: [UInt8]
        /// The signature's bytes as the file holds them.
        public var signature: [UInt8]

        /// A signature by `algorithm` of `message`.
        public init(algorithm: Algorithm, message: [UInt8], signature: [UInt8]) {
            self.algorithm = algorithm
            self.message = message
            self.signature = signature
        }
    }

    /// The format's `name`.
    public var format: String
    /// The image version, as the format writes it ("1.2.3", "0x00010002").
    public var version: String
    /// Integrity checks, passed or failed, in a fixed order.
    public var checks: [VerificationCheck]
    package var details: [Detail]
    /// The file's signature; nil for an unsigned file.
    public var signature: Signature?
    /// Numbers read from the file that profiles may compare with what a device reports
    /// (`image.info.NAME`: a GBL's `app_version`, say).
    public var values: [String: UInt64]
    /// What the format's published bootloader refuses in this file although the file is whole
    /// (a GBL tag the Gecko bootloader does not know): not damage, but a file no device of the
    /// kind takes. Every way into DFUKit refuses to send it unless forced.
    public var refusals: [String]

    /// What a format found in a file.
    public init(format: String, version: String, checks: [VerificationCheck], details: [Detail],
                signature: Signature? = nil, values: [String: UInt64] = [:], refusals: [String] = []) {
        self.format = format
        self.version = version
        self.checks = checks
        self.details = details
        self.signature = signature
        self.values = values
        self.refusals = refusals
    }
}

/// Every standalone format `FirmwarePackage.open` knows, tried in order. A new format is one
/// file implementing `StandaloneImageFormat` and one line here.
package enum StandaloneImageFormats {
    public static let all: [any StandaloneImageFormat.Type] = [
        GBLImageFormat.self,
        SUOTAImageFormat.self,
        TIOADImageFormat.self,
        TelinkBinaryFormat.self,
    ]

    /// The largest standalone image read.
    package static let maximumSize = 16 * 1024 * 1024

    /// The format a file with these first bytes is, if any.
    static func format(head: [UInt8], path: String) -> (any StandaloneImageFormat.Type)? {
        all.first { $0.recognizes(head: head, path: path) }
    }
}
