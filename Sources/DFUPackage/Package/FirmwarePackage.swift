/// A firmware package opened from disk: its manifest and every image's bytes.
///
/// Opening checks the archive's structure (zip validity, safe entry names, manifest syntax,
/// bounded entry sizes) but not the images' integrity, so that a damaged package can still be
/// inspected. Anything that sends bytes to a device must call `requireIntact()` first.
public struct FirmwarePackage: Sendable, Equatable {
    /// Where the package was read from; used in error messages.
    public let path: String
    public let format: PackageFormat
    public let manifest: PackageManifest
    /// The images in send order.
    public let images: [FirmwareImage]

    public init(path: String, format: PackageFormat, manifest: PackageManifest, images: [FirmwareImage]) {
        self.path = path
        self.format = format
        self.manifest = manifest
        self.images = images
    }

    /// Reads the package at `path`.
    /// - Throws: `PackageError` when the file is unreadable, not a zip, corrupt, has an unsafe
    ///   entry name, lacks or has a bad manifest, misses an image file, or holds an entry far
    ///   larger than its manifest declares. Integrity mismatches are *not* thrown here.
    public static func open(path: String) throws(PackageError) -> FirmwarePackage {
        let archive = try ZipArchive(path: path)
        guard let manifestBytes = try archive.read(named: PackageManifest.entryName,
                                                   expectedSize: PackageManifest.maximumSize) else {
            throw .missingManifest(path: path)
        }
        let manifest = try PackageManifest.parse(manifestBytes, packagePath: path)
        var images: [FirmwareImage] = []
        for described in manifest.images {
            guard let entry = archive.entry(named: described.file), !entry.isDirectory else {
                throw .missingImageFile(path: path, image: described.name, file: described.file)
            }
            let data = try archive.read(entry, expectedSize: described.size)
            images.append(FirmwareImage(manifestImage: described, data: data))
        }
        return FirmwarePackage(path: path, format: manifest.format, manifest: manifest, images: images)
    }

    /// The image called `name`, if any.
    public func image(named name: String) -> FirmwareImage? {
        images.first { $0.name == name }
    }

    /// Whether every image matches the manifest.
    public var isIntact: Bool { images.allSatisfy(\.matchesManifest) }

    /// Throws unless every image matches its declared size, SHA-256 and CRC32.
    /// - Throws: `PackageError.imageMismatch` for the first damaged image, listing every failed check.
    public func requireIntact() throws(PackageError) {
        for image in images {
            let mismatches = image.mismatches
            if !mismatches.isEmpty {
                throw .imageMismatch(path: path, image: image.name, mismatches: mismatches)
            }
        }
    }
}
