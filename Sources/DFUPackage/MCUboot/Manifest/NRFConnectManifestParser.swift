import DFUBytes
/// Turns an nRF Connect SDK `manifest.json` document into an `NRFConnectManifest`, naming the
/// exact key of any problem (`files[0].image_index`). Keys it does not use (`modtime`, ...)
/// are ignored.
struct NRFConnectManifestParser {
    let packagePath: String

    /// The `format-version` values generate_zip.py has written.
    static let supportedFormatVersions: ClosedRange<Int64> = 0...1

    func parse(_ document: JSONValue) throws(PackageError) -> NRFConnectManifest {
        var formatVersion: Int?
        if let value = document["format-version"] {
            guard let number = try integer(value, at: "format-version") else { throw bad("format-version", "null") }
            guard Self.supportedFormatVersions.contains(number) else {
                throw .unsupportedFormat(path: packagePath, found: "'nRF Connect SDK DFU zip' format-version \(number)")
            }
            formatVersion = Int(number)
        }
        let name = try optionalString(document, "name", at: "name")
        var time: Int64?
        if let value = document["time"] { time = try integer(value, at: "time") }
        guard let filesValue = document["files"] else { throw bad("files", "missing") }
        guard case let .array(values) = filesValue else {
            throw bad("files", "expected an array, found \(filesValue.typeName)")
        }
        guard !values.isEmpty else { throw bad("files", "the package lists no image") }
        var files: [NRFConnectManifestFile] = []
        for (index, value) in values.enumerated() {
            let file = try parseFile(value, at: "files[\(index)]")
            if files.contains(where: { $0.imageIndex == file.imageIndex }) {
                throw bad("files[\(index)].image_index", "duplicate image_index \(file.imageIndex)")
            }
            files.append(file)
        }
        return NRFConnectManifest(formatVersion: formatVersion, name: name, time: time, files: files)
    }

    private func parseFile(_ value: JSONValue, at path: String) throws(PackageError) -> NRFConnectManifestFile {
        guard case .object = value else { throw bad(path, "expected an object, found \(value.typeName)") }
        guard let file = try optionalString(value, "file", at: path + ".file") else { throw bad(path + ".file", "missing") }
        guard !file.isEmpty else { throw bad(path + ".file", "empty") }
        try ZipEntryName.validate(file, in: packagePath)

        let imageIndex = try optionalInteger(value, "image_index", at: path, range: 0...255) ?? 0
        let size = try optionalInteger(value, "size", at: path, range: 0...Int64(NRFConnectManifest.maximumImageSize))
        var version: MCUbootImageVersion?
        if let text = try optionalString(value, "version_MCUBOOT", at: path + ".version_MCUBOOT") {
            guard let parsed = MCUbootImageVersion(text) else {
                throw bad(path + ".version_MCUBOOT", "'\(text)' is not an MCUboot version such as 1.2.3+4")
            }
            version = parsed
        }
        let loadAddress = try optionalInteger(value, "load_address", at: path, range: 0...Int64(UInt32.max))
        return NRFConnectManifestFile(
            file: file, imageIndex: Int(imageIndex), size: size.map { Int($0) }, version: version,
            loadAddress: loadAddress.map { UInt64($0) },
            type: try optionalString(value, "type", at: path + ".type"),
            board: try optionalString(value, "board", at: path + ".board"),
            soc: try optionalString(value, "soc", at: path + ".soc"),
            primarySlot: try optionalInteger(value, "slot_index_primary", at: path, range: 0...255).map { Int($0) },
            secondarySlot: try optionalInteger(value, "slot_index_secondary", at: path, range: 0...255).map { Int($0) })
    }

    /// A string member; `nil` when absent or null.
    private func optionalString(_ object: JSONValue, _ key: String, at path: String) throws(PackageError) -> String? {
        guard let value = object[key] else { return nil }
        switch value {
        case .null: return nil
        case let .string(text): return text
        default: throw bad(path, "expected a string, found \(value.typeName)")
        }
    }

    /// An integer member given as a number, a decimal string (`"0"`) or a hex string (`"0xc200"`);
    /// `nil` when absent or null.
    private func optionalInteger(_ object: JSONValue, _ key: String, at path: String,
                                 range: ClosedRange<Int64>) throws(PackageError) -> Int64? {
        guard let value = object[key], let number = try integer(value, at: path + "." + key) else { return nil }
        guard range.contains(number) else {
            throw bad(path + "." + key, "\(number) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
        return number
    }

    private func integer(_ value: JSONValue, at path: String) throws(PackageError) -> Int64? {
        switch value {
        case .null:
            return nil
        case let .integer(number):
            return number
        case let .string(text):
            let lowered = text.lowercased()
            let parsed = lowered.hasPrefix("0x") ? Int64(lowered.dropFirst(2), radix: 16) : Int64(lowered)
            guard let parsed else { throw bad(path, "expected an integer, found '\(text)'") }
            return parsed
        default:
            throw bad(path, "expected an integer, found \(value.typeName)")
        }
    }

    private func bad(_ key: String, _ problem: String) -> PackageError {
        .badManifest(path: packagePath, key: key, problem: problem)
    }
}
