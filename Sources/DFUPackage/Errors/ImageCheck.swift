/// One integrity check that a firmware image must pass before any byte reaches a device.
public enum ImageCheck: String, Sendable, Equatable, CaseIterable {
    /// The image's length in bytes equals the manifest's `size`.
    case size
    /// The SHA-256 of the image equals the manifest's `sha256`.
    case sha256
    /// The zlib CRC32 of the image equals the manifest's `crc32`.
    case crc32
}
