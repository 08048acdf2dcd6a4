/// Makes DFUKit packages: a zip holding `manifest.json` and one `<name>.bin` per image.
public enum PackageBuilder {
    /// One image to put in a package.
    public struct Image: Sendable, Equatable {
        /// The image's role, e.g. `application`; letters, digits, `-`, `_` and `.` only.
        public let name: String
        /// The image bytes, as they will be sent.
        public let data: [UInt8]
        /// The version the manifest declares for it ("1.2.0").
        public let version: String

        /// An image `name` of `data` at `version`.
        public init(name: String, data: [UInt8], version: String) {
            self.name = name
            self.data = data
            self.version = version
        }

        /// Reads the image bytes from a `.bin` or `.hex` file (see `ImageFile`).
        public init(name: String, filePath: String, version: String) throws(PackageError) {
            self.init(name: name, data: try ImageFile.load(path: filePath), version: version)
        }
    }

    /// Writes a package with `images` (in send order), all flashed with `profile`, to `outputPath`.
    ///
    /// The same inputs give a byte-identical file. libzip writes a temporary file and renames it
    /// into place, so a failure never leaves a half-written package behind.
    /// - Returns: the manifest written.
    @discardableResult
    public static func create(images: [Image], profile: String, outputPath: String) throws(PackageError) -> PackageManifest {
        let manifest = try manifest(for: images, profile: profile)
        let writer = try ZipWriter(path: outputPath)
        try writer.add(name: PackageManifest.entryName, bytes: Array(manifest.jsonText().utf8))
        for (image, described) in zip(images, manifest.images) {
            try writer.add(name: described.file, bytes: image.data)
        }
        try writer.close()
        return manifest
    }

    /// The manifest `create` would write, after checking the input.
    public static func manifest(for images: [Image], profile: String) throws(PackageError) -> PackageManifest {
        guard !images.isEmpty else { throw .invalidBuildInput(reason: "no image given") }
        guard !profile.isEmpty else { throw .invalidBuildInput(reason: "the profile name is empty") }
        var seen: Set<String> = []
        var described: [ManifestImage] = []
        for image in images {
            guard isValidName(image.name) else {
                throw .invalidBuildInput(reason: "image name '\(PackageError.printable(image.name))' must be letters, digits, '-', '_' or '.' and not start with '.'")
            }
            guard seen.insert(image.name).inserted else {
                throw .invalidBuildInput(reason: "image name '\(image.name)' given twice")
            }
            guard !image.data.isEmpty else {
                throw .invalidBuildInput(reason: "image '\(image.name)' is empty: a package of nothing could only be "
                                         + "'flashed' without the device showing anything")
            }
            guard image.data.count <= ZipReadLimit.hardLimit else {
                throw .invalidBuildInput(reason: "image '\(image.name)' has \(image.data.count) bytes, more than the \(ZipReadLimit.hardLimit)-byte limit")
            }
            described.append(ManifestImage(name: image.name, file: image.name + ".bin", data: image.data,
                                           version: image.version, profile: profile))
        }
        return PackageManifest(images: described)
    }

    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                               || scalar == "-" || scalar == "_" || scalar == ".")
        }
    }
}
