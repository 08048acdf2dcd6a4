import DFUBytes

/// fwupd's Telink archive: a zip holding `manifest.json` and the image, as fwupd's telink-dfu
/// plugin reads it (`plugins/telink-dfu/fu-telink-dfu-archive.c` `fu_telink_dfu_archive_parse`,
/// `..._load_file`):
///
/// ```json
/// {"format-version": 0,
///  "files": [{"file": "firmware.bin", "bootloader_type": "ota-v1", "board": "8208",
///             "image_version": "1.2.3", "load_address": 0}]}
/// ```
///
/// `format-version` must be there and at most 0; `files` lists at least one image; each names
/// its `file` (looked up by its base name, as fwupd does), a `bootloader_type` of `beta`,
/// `ota-v1` or `usb-dongle-simple`, a `board` and an `image_version`. fwupd's BLE device sends
/// the image and judges the update by the version the device reports afterwards, so the
/// manifest's `image_version` becomes the image's version. The image itself is read as a
/// `TelinkBinaryFormat` file, with its checks.
enum TelinkArchive {
    static let bootloaderTypes = ["beta", "ota-v1", "usb-dongle-simple"]
    static let maximumFormatVersion: Int64 = 0

    /// Whether `manifest` is a Telink archive's: a `files` list whose entries name a
    /// `bootloader_type` (nRF Connect SDK manifests also have `files`, without it).
    static func recognizes(_ manifest: JSONValue) -> Bool {
        guard case let .array(files)? = manifest["files"] else { return false }
        return files.contains { $0["bootloader_type"] != nil }
    }

    /// The package of a Telink archive whose manifest is `manifest`.
    static func open(_ archive: ZipArchive, manifest: JSONValue) throws(PackageError) -> FirmwarePackage {
        let path = archive.path
        guard let formatValue = manifest["format-version"] else {
            throw .badManifest(path: path, key: "format-version", problem: "missing (fwupd: \"manifest has invalid format\")")
        }
        guard case let .integer(formatVersion) = formatValue else {
            throw .badManifest(path: path, key: "format-version", problem: "expected an integer, found \(formatValue.typeName)")
        }
        guard formatVersion <= maximumFormatVersion else {
            throw .unsupportedFormat(path: path, found: "'Telink DFU archive' format-version \(formatVersion) (fwupd reads 0)")
        }
        guard case let .array(files)? = manifest["files"], !files.isEmpty else {
            throw .badManifest(path: path, key: "files", problem: "the archive lists no image")
        }
        guard files.count == 1 else {
            throw .badManifest(path: path, key: "files",
                               problem: "lists \(files.count) images; a Telink BLE device takes one (fwupd sends firmware.bin)")
        }
        let entry = try fileEntry(files[0], at: "files[0]", path: path)
        guard let zipEntry = archive.entry(named: entry.file)
            ?? archive.entries.first(where: { !$0.isDirectory && BareImageFile.lastPathComponent($0.name) == entry.file })
        else {
            throw .missingImageFile(path: path, image: "application", file: entry.file)
        }
        let data = try archive.read(zipEntry, expectedSize: StandaloneImageFormats.maximumSize)
        var read = try TelinkBinaryFormat.read(data, path: path)
        read.version = entry.version
        read.details.insert(contentsOf: [
            StandaloneImage.Detail("archive", "fwupd telink-dfu archive, manifest.json format-version \(formatVersion)"),
            StandaloneImage.Detail("board", entry.board),
            StandaloneImage.Detail("bootloader_type", entry.bootloaderType),
            StandaloneImage.Detail("image_version", entry.version),
        ], at: 0)
        let image = FirmwareImage(standalone: read, profile: TelinkBinaryFormat.profile, fileName: zipEntry.name, data: data)
        return FirmwarePackage(path: path, format: .standalone, manifest: .standaloneImage, images: [image])
    }

    private struct FileEntry {
        var file: String
        var bootloaderType: String
        var board: String
        var version: String
    }

    private static func fileEntry(_ value: JSONValue, at key: String, path: String) throws(PackageError) -> FileEntry {
        func string(_ name: String) throws(PackageError) -> String {
            guard let member = value[name] else { throw .badManifest(path: path, key: "\(key).\(name)", problem: "missing") }
            guard case let .string(text) = member else {
                throw .badManifest(path: path, key: "\(key).\(name)", problem: "expected a string, found \(member.typeName)")
            }
            return text
        }
        let file = try string("file")
        try ZipEntryName.validate(file, in: path)
        let bootloaderType = try string("bootloader_type")
        guard bootloaderTypes.contains(bootloaderType) else {
            throw .badManifest(path: path, key: "\(key).bootloader_type",
                               problem: "'\(bootloaderType)' is not one fwupd knows (\(bootloaderTypes.joined(separator: ", ")))")
        }
        let version = try string("image_version")
        guard !version.isEmpty else { throw .badManifest(path: path, key: "\(key).image_version", problem: "empty") }
        return FileEntry(file: file, bootloaderType: bootloaderType, board: try string("board"), version: version)
    }
}
