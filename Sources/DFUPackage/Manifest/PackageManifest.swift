/// The contents of a DFUKit package's `manifest.json`.
///
/// Images are listed in the order they are to be sent to the device.
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

    public init(images: [ManifestImage]) {
        self.format = .dfukit
        self.formatVersion = Self.currentFormatVersion
        self.images = images
    }

    /// The image called `name`, if any.
    public func image(named name: String) -> ManifestImage? {
        images.first { $0.name == name }
    }

    /// The manifest as pretty-printed JSON, keys in a fixed order.
    public func jsonText() -> String {
        JSONValue.object([
            ("format", .string(format.rawValue)),
            ("format_version", .integer(Int64(formatVersion))),
            ("images", .array(images.map(\.jsonValue))),
        ]).prettyText
    }

    /// Parses `manifest.json` bytes; `packagePath` only goes into error messages.
    /// - Throws: `PackageError.badManifest` naming the offending key, `.unsupportedFormat`,
    ///   or `.unsafeEntryName` for an image `file` that could escape the archive.
    public static func parse(_ bytes: [UInt8], packagePath: String) throws(PackageError) -> PackageManifest {
        try ManifestParser(packagePath: packagePath).parse(bytes)
    }
}
