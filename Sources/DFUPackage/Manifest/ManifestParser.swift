import DFUBytes
/// Turns `manifest.json` bytes into a `PackageManifest`, naming the exact key of any problem.
struct ManifestParser {
    let packagePath: String

    func parse(_ bytes: [UInt8]) throws(PackageError) -> PackageManifest {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw .badManifest(path: packagePath, key: "(document)", problem: "not valid JSON: \(error.message)")
        }
        guard case .object = document else {
            throw bad("(document)", "expected an object, found \(document.typeName)")
        }
        if document["format"] == nil, document["manifest"] != nil {
            return PackageManifest(nordic: try NordicManifestParser(packagePath: packagePath).parse(document))
        }
        if document["format"] == nil, document["files"] != nil {
            return PackageManifest(nrfConnect: try NRFConnectManifestParser(packagePath: packagePath).parse(document))
        }
        let format = try string(document, "format", at: "format")
        guard format == PackageFormat.dfukit.rawValue else {
            throw .unsupportedFormat(path: packagePath, found: "'\(format)'")
        }
        let version = try integer(document, "format_version", at: "format_version")
        guard version == PackageManifest.currentFormatVersion else {
            throw .unsupportedFormat(path: packagePath, found: "'\(format)' version \(version)")
        }
        guard let imagesValue = document["images"] else { throw bad("images", "missing") }
        guard case let .array(imageValues) = imagesValue else {
            throw bad("images", "expected an array, found \(imagesValue.typeName)")
        }
        guard !imageValues.isEmpty else { throw bad("images", "the package lists no image") }

        var images: [ManifestImage] = []
        for (offset, value) in imageValues.enumerated() {
            let image = try parseImage(value, at: "images[\(offset)]")
            if images.contains(where: { $0.name == image.name }) {
                throw bad("images[\(offset)].name", "duplicate image name '\(image.name)'")
            }
            images.append(image)
        }
        return PackageManifest(images: images)
    }

    private func parseImage(_ value: JSONValue, at path: String) throws(PackageError) -> ManifestImage {
        guard case .object = value else { throw bad(path, "expected an object, found \(value.typeName)") }
        let name = try string(value, "name", at: path + ".name")
        guard !name.isEmpty else { throw bad(path + ".name", "empty") }
        let file = try string(value, "file", at: path + ".file")
        try ZipEntryName.validate(file, in: packagePath)
        let size = try integer(value, "size", at: path + ".size")
        guard size >= 0 else { throw bad(path + ".size", "negative (\(size))") }
        guard size <= ZipReadLimit.hardLimit else {
            throw bad(path + ".size", "\(size) bytes exceeds the \(ZipReadLimit.hardLimit)-byte limit")
        }
        let sha256 = try string(value, "sha256", at: path + ".sha256")
        guard sha256.count == 64, sha256.allSatisfy(\.isHexDigit) else {
            throw bad(path + ".sha256", "expected 64 hex digits, found '\(sha256)'")
        }
        guard let crcValue = value["crc32"] else { throw bad(path + ".crc32", "missing") }
        guard case let .string(crcText) = crcValue else {
            throw bad(path + ".crc32", "expected a string such as \"0x1234abcd\", found \(crcValue.typeName)")
        }
        guard let crc32 = ManifestImage.parseCRC32(crcText) else {
            throw bad(path + ".crc32", "expected \"0x\" and 1 to 8 hex digits, found '\(crcText)'")
        }
        let version = try string(value, "version", at: path + ".version")
        let profile = try string(value, "profile", at: path + ".profile")
        guard !profile.isEmpty else { throw bad(path + ".profile", "empty") }
        return ManifestImage(name: name, file: file, size: Int(size), sha256: sha256, crc32: crc32,
                             version: version, profile: profile)
    }

    private func string(_ object: JSONValue, _ key: String, at path: String) throws(PackageError) -> String {
        guard let value = object[key] else { throw bad(path, "missing") }
        guard case let .string(text) = value else { throw bad(path, "expected a string, found \(value.typeName)") }
        return text
    }

    private func integer(_ object: JSONValue, _ key: String, at path: String) throws(PackageError) -> Int64 {
        guard let value = object[key] else { throw bad(path, "missing") }
        guard case let .integer(number) = value else {
            throw bad(path, "expected an integer, found \(value.typeName)")
        }
        return number
    }

    private func bad(_ key: String, _ problem: String) -> PackageError {
        .badManifest(path: packagePath, key: key, problem: problem)
    }
}
