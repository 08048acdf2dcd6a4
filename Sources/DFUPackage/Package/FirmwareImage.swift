import DFUBytes

/// One firmware image of a package: its bytes, what the manifest declares about them, and what
/// the bytes actually give.
///
/// An image is built even when its bytes disagree with the manifest, so that `inspect` can show
/// the damage; `matchesManifest` / `mismatches` say whether it may be flashed.
public struct FirmwareImage: Sendable, Equatable {
    /// The image's role, e.g. `application`.
    public let name: String
    /// The archive entry the bytes came from.
    public let fileName: String
    public let version: String
    /// The DFU profile that flashes this image.
    public let profile: String
    /// The size the package declares; `nil` when its format declares none.
    public let declaredSize: Int?
    /// The SHA-256 (lowercase hex) the package declares; `nil` when its format declares none.
    public let declaredSHA256: String?
    /// The CRC32 the package declares; `nil` when its format declares none.
    public let declaredCRC32: UInt32?
    /// The image bytes as stored in the package.
    public let data: [UInt8]
    /// SHA-256 of `data`, lowercase hex.
    public let sha256: String
    /// zlib CRC32 of `data`.
    public let crc32: UInt32
    /// Bytes sent before the image by protocols that need them (Nordic's `.dat` init packet);
    /// `nil` for DFUKit packages.
    public let initPacket: [UInt8]?

    public init(name: String, fileName: String, version: String, profile: String,
                declaredSize: Int?, declaredSHA256: String?, declaredCRC32: UInt32?,
                data: [UInt8], initPacket: [UInt8]? = nil) {
        self.name = name
        self.fileName = fileName
        self.version = version
        self.profile = profile
        self.declaredSize = declaredSize
        self.declaredSHA256 = declaredSHA256?.lowercased()
        self.declaredCRC32 = declaredCRC32
        self.data = data
        self.sha256 = SHA256.digest(data).hexString
        self.crc32 = CRC32.checksum(data)
        self.initPacket = initPacket
    }

    /// An image described by a manifest entry, with the bytes read from the archive.
    public init(manifestImage image: ManifestImage, data: [UInt8]) {
        self.init(name: image.name, fileName: image.file, version: image.version, profile: image.profile,
                  declaredSize: image.size, declaredSHA256: image.sha256, declaredCRC32: image.crc32,
                  data: data)
    }

    /// Number of bytes in `data`.
    public var size: Int { data.count }

    /// Every declared value that the bytes do not match, in the order size, SHA-256, CRC32.
    public var mismatches: [ImageMismatch] {
        var result: [ImageMismatch] = []
        if let declaredSize, declaredSize != size {
            result.append(ImageMismatch(check: .size, declared: "\(declaredSize) bytes", actual: "\(size) bytes"))
        }
        if let declaredSHA256, declaredSHA256 != sha256 {
            result.append(ImageMismatch(check: .sha256, declared: declaredSHA256, actual: sha256))
        }
        if let declaredCRC32, declaredCRC32 != crc32 {
            result.append(ImageMismatch(check: .crc32, declared: ManifestImage.formatCRC32(declaredCRC32),
                                        actual: ManifestImage.formatCRC32(crc32)))
        }
        return result
    }

    /// `mismatches` as sentences, for reports.
    public var problems: [String] { mismatches.map(\.description) }

    /// Whether the bytes match everything the package declares about them.
    public var matchesManifest: Bool { mismatches.isEmpty }
}
