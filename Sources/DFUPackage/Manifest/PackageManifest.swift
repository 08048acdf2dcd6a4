import DFUBytes
/// The contents of a package's `manifest.json`.
///
/// For DFUKit packages `images` lists the images in the order they are to be sent. For Nordic
/// packages `images` is empty and `nordic` holds the nrfutil manifest (images in send order); for
/// nRF Connect SDK zips `nrfConnect` holds it. A bare MCUboot image has no manifest: its
/// `PackageManifest` is `bareMCUbootImage`, with nothing in it.
public struct PackageManifest: Sendable, Equatable {
    /// The entry name of the manifest at the archive root.
    package static let entryName = "manifest.json"
    /// The `format_version` this code writes and reads.
    package static let currentFormatVersion = 1
    /// The most bytes a manifest may have; more is refused as a possible zip bomb.
    package static let maximumSize = 1024 * 1024

    /// Which kind of package the manifest belongs to.
    public let format: PackageFormat
    package let formatVersion: Int
    /// DFUKit packages: the images in send order; empty for other formats.
    public let images: [ManifestImage]
    /// The nrfutil manifest of a Nordic package; `nil` for other packages.
    public let nordic: NordicManifest?
    /// The manifest of an nRF Connect SDK `dfu_application.zip`; `nil` for other packages.
    package let nrfConnect: NRFConnectManifest?

    /// The manifest of a DFUKit package with `images`.
    public init(images: [ManifestImage]) {
        self.init(format: .dfukit, formatVersion: Self.currentFormatVersion, images: images)
    }

    /// The manifest of a Nordic package (`format` `.nordicSecure` or `.nordicLegacy`,
    /// `formatVersion` 0: nrfutil manifests carry none).
    public init(nordic: NordicManifest) {
        self.init(format: nordic.format, formatVersion: 0, nordic: nordic)
    }

    /// The manifest of an nRF Connect SDK zip (`format` `.nrfConnectDFU`, `formatVersion` its
    /// `format-version`, 0 when absent).
    public init(nrfConnect: NRFConnectManifest) {
        self.init(format: .nrfConnectDFU, formatVersion: nrfConnect.formatVersion ?? 0, nrfConnect: nrfConnect)
    }

    /// What a bare MCUboot image file has in place of a manifest: format `.mcuboot`, nothing else.
    package static let bareMCUbootImage = PackageManifest(format: .mcuboot, formatVersion: 0)

    /// What a standalone image file (`StandaloneImageFormat`) has in place of a manifest.
    package static let standaloneImage = PackageManifest(format: .standalone, formatVersion: 0)

    private init(format: PackageFormat, formatVersion: Int, images: [ManifestImage] = [],
                 nordic: NordicManifest? = nil, nrfConnect: NRFConnectManifest? = nil) {
        self.format = format
        self.formatVersion = formatVersion
        self.images = images
        self.nordic = nordic
        self.nrfConnect = nrfConnect
    }

    /// The image called `name`, if any.
    public func image(named name: String) -> ManifestImage? {
        images.first { $0.name == name }
    }

    /// The manifest as pretty-printed JSON, keys in a fixed order (DFUKit format only).
    package func jsonText() -> String {
        JSONValue.object([
            ("format", .string(format.rawValue)),
            ("format_version", .integer(Int64(formatVersion))),
            ("images", .array(images.map(\.jsonValue))),
        ]).prettyText
    }

    /// Parses `manifest.json` bytes, a DFUKit manifest, an nrfutil one (`{"manifest": ...}`) or
    /// an nRF Connect SDK one (`{"format-version": 1, "files": [...]}`);
    /// `packagePath` only goes into error messages.
    /// - Throws: `PackageError.badManifest` naming the offending key, `.unsupportedFormat`,
    ///   or `.unsafeEntryName` for an image `file` that could escape the archive.
    public static func parse(_ bytes: [UInt8], packagePath: String) throws(PackageError) -> PackageManifest {
        try ManifestParser(packagePath: packagePath).parse(bytes)
    }
}
