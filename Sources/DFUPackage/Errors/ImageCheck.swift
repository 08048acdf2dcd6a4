/// One check that a firmware image must pass before any byte reaches a device. The raw value is
/// the check's name in reports (`dfukit package verify`, `--json`).
public enum ImageCheck: String, Sendable, Equatable, CaseIterable {
    /// The image's length in bytes equals the manifest's `size` (DFUKit packages).
    case size
    /// The SHA-256 of the image equals the manifest's `sha256` (DFUKit packages).
    case sha256
    /// The zlib CRC32 of the image equals the manifest's `crc32` (DFUKit packages).
    case crc32
    /// The `.dat` init packet decodes (Nordic packages).
    case initPacket = "init_packet"
    /// `InitCommand.type` fits the manifest key the image is listed under (Secure DFU).
    case firmwareType = "firmware_type"
    /// `InitCommand.hash.hash_type` is SHA-256, the only type bootloaders accept (Secure DFU).
    case hashType = "hash_type"
    /// `InitCommand.hash` equals the byte-reversed SHA-256 of the `.bin` (Secure DFU).
    case hash
    /// `app_size` / `sd_size` / `bl_size` match the `.bin` and the manifest's metadata.
    case sizes
    /// The legacy init packet's CRC16 equals the CRC-16/CCITT-FALSE of the `.bin` (legacy DFU).
    case crc16
    /// The legacy manifest's `init_packet_data` repeats the `.dat`'s fields (legacy DFU).
    case initPacketData = "init_packet_data"
    /// The file parses as an MCUboot image: header, payload and TLV areas in bounds (MCUboot).
    case mcubootImage = "mcuboot_image"
    /// The manifest's `version_MCUBOOT` equals the image header's version (nRF Connect SDK zip).
    case version
    /// The SHA256 TLV equals the SHA-256 of header, payload and protected TLV area (MCUboot).
    case imageHash = "image_hash"
    /// The init packet's or MCUboot image's signature verifies with the given public key (only
    /// with a key).
    case signature
    /// The MCUboot image's KEYHASH TLV (or PUBKEY TLV) names the given public key (only with a
    /// key, on signed images).
    case keyHash = "key_hash"
    /// A standalone image file's own structure and checksums (GBL tags and CRC, an OAD or SUOTA
    /// image header's CRC...); the detail says which.
    case fileFormat = "file_format"

    /// Whether the check compares the image with `manifest.json` (rather than an init packet).
    package var isManifestCheck: Bool {
        switch self {
        case .size, .sha256, .crc32, .initPacketData, .version: return true
        default: return false
        }
    }

    /// Whether the check compares an MCUboot image with its own header and TLVs.
    package var isMCUbootCheck: Bool {
        switch self {
        case .mcubootImage, .imageHash, .keyHash: return true
        default: return false
        }
    }
}
