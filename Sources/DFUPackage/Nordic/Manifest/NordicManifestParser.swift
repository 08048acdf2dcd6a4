import DFUBytes
/// Turns an nrfutil `manifest.json` document into a `NordicManifest`, naming the exact key of
/// any problem (`manifest.application.bin_file`).
struct NordicManifestParser {
    let packagePath: String

    /// The only legacy `dfu_version` whose init packet DFUKit reads (CRC16, no extended fields).
    static let supportedLegacyDFUVersion = 0.5

    func parse(_ document: JSONValue) throws(PackageError) -> NordicManifest {
        guard let body = document["manifest"] else { throw bad("manifest", "missing") }
        guard case let .object(members) = body else {
            throw bad("manifest", "expected an object, found \(body.typeName)")
        }
        var legacyDFUVersion: Double?
        var images: [NordicManifestImage] = []
        for (key, value) in members {
            if key == "dfu_version" {
                switch value {
                case let .number(number): legacyDFUVersion = number
                case let .integer(number): legacyDFUVersion = Double(number)
                default: throw bad("manifest.dfu_version", "expected a number, found \(value.typeName)")
                }
                continue
            }
            guard let kind = NordicImageKind(rawValue: key) else {
                let known = NordicImageKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw bad("manifest.\(key)", "unknown image kind; expected one of \(known) or dfu_version")
            }
            images.append(try parseImage(kind, value, at: "manifest.\(key)"))
        }
        guard !images.isEmpty else { throw bad("manifest", "the package lists no image") }
        if let legacyDFUVersion, legacyDFUVersion != Self.supportedLegacyDFUVersion {
            throw .unsupportedFormat(path: packagePath,
                                     found: "'legacy Nordic DFU' dfu_version \(legacyDFUVersion) (only 0.5 is read)")
        }
        return NordicManifest(legacyDFUVersion: legacyDFUVersion, images: images)
    }

    private func parseImage(_ kind: NordicImageKind, _ value: JSONValue,
                            at path: String) throws(PackageError) -> NordicManifestImage {
        guard case .object = value else { throw bad(path, "expected an object, found \(value.typeName)") }
        let binFile = try string(value, "bin_file", at: path)
        try ZipEntryName.validate(binFile, in: packagePath)
        let datFile = try string(value, "dat_file", at: path)
        try ZipEntryName.validate(datFile, in: packagePath)

        var softDeviceSize = try optionalSize(value, "sd_size", at: path)
        var bootloaderSize = try optionalSize(value, "bl_size", at: path)
        if let metadata = value["info_read_only_metadata"] {
            let metadataPath = path + ".info_read_only_metadata"
            guard case .object = metadata else {
                throw bad(metadataPath, "expected an object, found \(metadata.typeName)")
            }
            softDeviceSize = try optionalSize(metadata, "sd_size", at: metadataPath) ?? softDeviceSize
            bootloaderSize = try optionalSize(metadata, "bl_size", at: metadataPath) ?? bootloaderSize
        }
        var legacyData: LegacyInitPacketData?
        if let data = value["init_packet_data"] {
            legacyData = try parseLegacyData(data, at: path + ".init_packet_data")
        }
        return NordicManifestImage(kind: kind, binFile: binFile, datFile: datFile, softDeviceSize: softDeviceSize,
                                   bootloaderSize: bootloaderSize, legacyInitPacketData: legacyData)
    }

    private func parseLegacyData(_ value: JSONValue, at path: String) throws(PackageError) -> LegacyInitPacketData {
        guard case .object = value else { throw bad(path, "expected an object, found \(value.typeName)") }
        var requirements: [Int64]?
        if let list = value["softdevice_req"] {
            guard case let .array(elements) = list else {
                throw bad(path + ".softdevice_req", "expected an array, found \(list.typeName)")
            }
            var values: [Int64] = []
            for (index, element) in elements.enumerated() {
                guard case let .integer(number) = element else {
                    throw bad(path + ".softdevice_req[\(index)]", "expected an integer, found \(element.typeName)")
                }
                values.append(number)
            }
            requirements = values
        }
        return LegacyInitPacketData(deviceType: try optionalInteger(value, "device_type", at: path),
                                    deviceRevision: try optionalInteger(value, "device_revision", at: path),
                                    applicationVersion: try optionalInteger(value, "application_version", at: path),
                                    softDeviceRequirements: requirements,
                                    firmwareCRC16: try optionalInteger(value, "firmware_crc16", at: path))
    }

    private func string(_ object: JSONValue, _ key: String, at path: String) throws(PackageError) -> String {
        guard let value = object[key] else { throw bad(path + "." + key, "missing") }
        guard case let .string(text) = value else {
            throw bad(path + "." + key, "expected a string, found \(value.typeName)")
        }
        guard !text.isEmpty else { throw bad(path + "." + key, "empty") }
        return text
    }

    private func optionalInteger(_ object: JSONValue, _ key: String, at path: String) throws(PackageError) -> Int64? {
        guard let value = object[key] else { return nil }
        guard case let .integer(number) = value else {
            throw bad(path + "." + key, "expected an integer, found \(value.typeName)")
        }
        return number
    }

    private func optionalSize(_ object: JSONValue, _ key: String, at path: String) throws(PackageError) -> Int? {
        guard let number = try optionalInteger(object, key, at: path) else { return nil }
        guard number >= 0, number <= Int64(NordicManifest.maximumImageSize) else {
            throw bad(path + "." + key, "\(number) is not a size between 0 and \(NordicManifest.maximumImageSize)")
        }
        return Int(number)
    }

    private func bad(_ key: String, _ problem: String) -> PackageError {
        .badManifest(path: packagePath, key: key, problem: problem)
    }
}
