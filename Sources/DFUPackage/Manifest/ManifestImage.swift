import DFUBytes

/// One entry of `images` in a DFUKit `manifest.json`.
///
/// ```json
/// {"name": "application", "file": "application.bin", "size": 1234,
///  "sha256": "<64 lowercase hex digits>", "crc32": "0x1234abcd",
///  "version": "1.2.3", "profile": "vendor-ctrlpt"}
/// ```
/// `crc32` is always a string: `0x` and exactly eight lowercase hex digits when written; when
/// read, `0x` and one to eight hex digits of either case. A string keeps the value readable next
/// to `sha256` and avoids JSON number precision questions; a JSON number is rejected.
public struct ManifestImage: Sendable, Equatable {
    /// The image's role, e.g. `application`, `bootloader`; unique within a package.
    public let name: String
    /// The archive entry holding the image bytes.
    public let file: String
    /// Length of the image in bytes.
    public let size: Int
    /// SHA-256 of the image, lowercase hex.
    public let sha256: String
    /// zlib CRC32 (CRC-32/ISO-HDLC) of the image.
    public let crc32: UInt32
    /// The firmware version, free-form (usually `major.minor.patch`).
    public let version: String
    /// Name of the DFU profile that flashes this image, e.g. `vendor-ctrlpt`.
    public let profile: String

    /// An entry with these fields, as `PackageBuilder` writes it.
    public init(name: String, file: String, size: Int, sha256: String, crc32: UInt32,
                version: String, profile: String) {
        self.name = name
        self.file = file
        self.size = size
        self.sha256 = sha256.lowercased()
        self.crc32 = crc32
        self.version = version
        self.profile = profile
    }

    /// Describes `data` as an image called `name`, stored as `file`.
    public init(name: String, file: String, data: [UInt8], version: String, profile: String) {
        self.init(name: name, file: file, size: data.count, sha256: SHA256.digest(data).hexString,
                  crc32: CRC32.checksum(data), version: version, profile: profile)
    }

    /// `crc32` as the manifest writes it: `0x` and eight lowercase hex digits.
    package static func formatCRC32(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Reads a manifest `crc32` string; `nil` when it is not `0x` and one to eight hex digits.
    package static func parseCRC32(_ text: String) -> UInt32? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        let digits = text.dropFirst(2)
        guard (1...8).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(digits, radix: 16)
    }

    var jsonValue: JSONValue {
        .object([
            ("name", .string(name)),
            ("file", .string(file)),
            ("size", .integer(Int64(size))),
            ("sha256", .string(sha256)),
            ("crc32", .string(Self.formatCRC32(crc32))),
            ("version", .string(version)),
            ("profile", .string(profile)),
        ])
    }
}
