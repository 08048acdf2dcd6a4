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
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The format's `name`.
    public var format: String
    public var version: String
    /// Integrity checks, passed or failed, in a fixed order.
    public var checks: [VerificationCheck]
    public var details: [Detail]

    public init(format: String, version: String, checks: [VerificationCheck], details: [Detail]) {
        self.format = format
        self.version = version
        self.checks = checks
        self.details = details
    }
}

/// Every standalone format `FirmwarePackage.open` knows, tried in order. A new format is one
/// file implementing `StandaloneImageFormat` and one line here.
public enum StandaloneImageFormats {
    public static let all: [any StandaloneImageFormat.Type] = [TelinkBinaryFormat.self]

    /// The largest standalone image read.
    public static let maximumSize = 16 * 1024 * 1024

    /// The format a file with these first bytes is, if any.
    static func format(head: [UInt8], path: String) -> (any StandaloneImageFormat.Type)? {
        all.first { $0.recognizes(head: head, path: path) }
    }
}
