/// The contents of a package's `manifest.json`.
///
/// For DFUKit packages `images` lists the images in the order they are to be sent. For Nordic
/// packages `images` is empty and `nordic` holds the nrfutil manifest (images in send order).
public struct PackageManifest: Sendable, Equatable {
    /// The entry name of the manifest at the archive root.
    public static let entryName = "manifest.json"
    /// The `format_version` this code writes and reads.
    public static let currentFormatVersion = 1
    /// The most bytes a manifest may have; more is refused as a possible zip bomb.
    public static let maximumSize = 1024 * 1024

    public let format: PackageFormat
    public let formatVersion: Int
    public let images: [ManifestImage]
    /// The nrfutil manifest of a Nordic package; `nil` for DFUKit packages.
    public let nordic: NordicManifest?

    public init(images: [ManifestImage]) {
        self.format = .dfukit
        self.formatVersion = Self.currentFormatVersion
        self.images = images
        self.nordic = nil
    }

    /// The manifest of a Nordic package (`format` `.nordicSecure` or `.nordicLegacy`,
    /// `formatVersion` 0: nrfutil manifests carry none).
    public init(nordic: NordicManifest) {
        self.format = nordic.format
        self.formatVersion = 0
        self.images = []
        self.nordic = nordic
    }

    /// The image called `name`, if any.
    public func image(named name: String) -> ManifestImage? {
        images.first { $0.name == name }
    }

    /// The manifest as pretty-printed JSON, keys in a fixed order (DFUKit format only).
    public func jsonText() -> String {
        JSONValue.object([
            ("format", .string(format.rawValue)),
            ("format_version", .integer(Int64(formatVersion))),
            ("images", .array(images.map(\.jsonValue))),
        ]).prettyText
    }

    /// Parses `manifest.json` bytes, a DFUKit manifest or an nrfutil one (`{"manifest": ...}`);
    /// `packagePath` only goes into error messages.
    /// - Throws: `PackageError.badManifest` naming the offending key, `.unsupportedFormat`,
    ///   or `.unsafeEntryName` for an image `file` that could escape the archive.
    public static func parse(_ bytes: [UInt8], packagePath: String) throws(PackageError) -> PackageManifest {
        try ManifestParser(packagePath: packagePath).parse(bytes)
    }
}
