/// `struct image_header` of bootutil's `image.h`: the first 32 bytes of an MCUboot image,
/// little-endian. Bytes from 32 up to `headerSize` are padding (`imgtool sign --pad-header`).
///
/// | offset | field                 |
/// |--------|-----------------------|
/// | 0      | ih_magic u32          |
/// | 4      | ih_load_addr u32      |
/// | 8      | ih_hdr_size u16       |
/// | 10     | ih_protect_tlv_size u16 |
/// | 12     | ih_img_size u32       |
/// | 16     | ih_flags u32          |
/// | 20     | ih_ver: major u8, minor u8, revision u16, build u32 |
/// | 28     | _pad1 u32             |
public struct MCUbootImageHeader: Sendable, Equatable {
    /// `IMAGE_MAGIC`.
    package static let magic: UInt32 = 0x96F3_B83D
    /// `sizeof(struct image_header)`.
    public static let size = 32

    /// `ih_load_addr`: the RAM or fixed flash address (with `RAM_LOAD` / `ROM_FIXED`), else 0.
    package let loadAddress: UInt32
    /// `ih_hdr_size`: bytes before the image payload (header and padding).
    package let headerSize: Int
    /// `ih_protect_tlv_size`: size of the protected TLV area, info header included; 0 when absent.
    package let protectedTLVSize: Int
    /// `ih_img_size`: bytes of payload after the header.
    public let imageSize: Int
    /// `ih_flags`.
    public let flags: MCUbootImageFlags
    /// `ih_ver`: the image version.
    public let version: MCUbootImageVersion
    /// `_pad1`, normally 0.
    public let padding: UInt32

    /// A header with these fields (what `imgtool sign` would write).
    public init(loadAddress: UInt32, headerSize: Int, protectedTLVSize: Int, imageSize: Int,
                flags: MCUbootImageFlags, version: MCUbootImageVersion, padding: UInt32 = 0) {
        self.loadAddress = loadAddress
        self.headerSize = headerSize
        self.protectedTLVSize = protectedTLVSize
        self.imageSize = imageSize
        self.flags = flags
        self.version = version
        self.padding = padding
    }

    /// Decodes the 32-byte header at the start of `bytes`.
    /// - Throws: `.tooShortForHeader`, `.badMagic` (offset 0), `.headerSizeTooSmall` (offset 8).
    public init(decoding bytes: [UInt8]) throws(MCUbootImageError) {
        guard bytes.count >= Self.size else { throw .tooShortForHeader(byteCount: bytes.count) }
        func little(_ offset: Int, _ width: Int) -> UInt32 {
            (0..<width).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) }
        }
        let magic = little(0, 4)
        guard magic == Self.magic else { throw .badMagic(found: magic) }
        loadAddress = little(4, 4)
        headerSize = Int(little(8, 2))
        protectedTLVSize = Int(little(10, 2))
        imageSize = Int(little(12, 4))
        flags = MCUbootImageFlags(rawValue: little(16, 4))
        version = MCUbootImageVersion(major: bytes[20], minor: bytes[21], revision: UInt16(little(22, 2)),
                                      build: little(24, 4))
        padding = little(28, 4)
        guard headerSize >= Self.size else { throw .headerSizeTooSmall(headerSize: headerSize) }
    }

    /// Offset of the first byte after the payload: where the TLV areas start.
    package var payloadEndOffset: Int { headerSize + imageSize }
}
