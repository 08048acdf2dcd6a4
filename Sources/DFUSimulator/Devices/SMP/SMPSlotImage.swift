import DFUBytes
import DFUPackage

/// An image in an MCUboot slot, as the SMP image group sees it: read with DFUPackage's MCUboot
/// parser. Only images that parse and carry an image hash TLV are listed, as in Zephyr's
/// `img_mgmt_read_info`.
public struct SMPSlotImage: Sendable, Equatable {
    /// The whole image file.
    public let bytes: [UInt8]
    /// The version in its header.
    public let version: MCUbootImageVersion
    /// The image hash TLV: the hash SMP lists and takes for test / confirm.
    public let hash: [UInt8]
    /// False for an image flagged non-bootable (a split image's application).
    public let bootable: Bool
    /// Whether the image hash TLV matches the image (MCUboot refuses to boot it otherwise). An
    /// encrypted image's hash covers its plaintext, which MCUboot checks while decrypting with
    /// its private key; the simulated device holds no key and takes it as intact.
    package let isIntact: Bool

    /// The image in `bytes`; nil unless they parse as an MCUboot image with an image hash TLV.
    public init?(bytes: [UInt8]) {
        guard let image = try? MCUbootImage(bytes: bytes), let hash = image.imageHash else { return nil }
        self.bytes = bytes
        self.version = image.version
        self.hash = hash
        self.bootable = !image.header.flags.contains(.nonBootable)
        self.isIntact = image.header.flags.isEncrypted || image.imageHashMatches
    }

    /// Zephyr's `img_mgmt_ver_str`: `major.minor.revision`, then `.build` when build is not 0.
    package var versionString: String {
        let base = "\(version.major).\(version.minor).\(version.revision)"
        return version.build == 0 ? base : base + ".\(version.build)"
    }

    /// Whether `bytes` start with an MCUboot header magic (what Zephyr checks on the first chunk).
    static func startsWithHeaderMagic(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && Array(bytes.prefix(4)) == [0x3D, 0xB8, 0xF3, 0x96]
    }

    /// The version in the header at the start of `bytes` (at least 32 bytes).
    static func headerVersion(_ bytes: [UInt8]) -> MCUbootImageVersion? {
        guard bytes.count >= 32 else { return nil }
        return MCUbootImageVersion(major: bytes[20], minor: bytes[21],
                                   revision: UInt16(bytes[22]) | UInt16(bytes[23]) << 8,
                                   build: bytes[24..<28].reversed().reduce(0) { $0 << 8 | UInt32($1) })
    }
}

/// A minimal `imgtool sign`: a 32-byte header, the payload, and a TLV area holding the SHA256
/// TLV. For the simulated device's factory image and for tests.
public enum SimulatedMCUbootImage {
    /// An MCUboot image of `payload` at `version`, with `flags` in its header and its SHA-256 TLV.
    public static func make(payload: [UInt8], version: MCUbootImageVersion, flags: UInt32 = 0) -> [UInt8] {
        var writer = ByteWriter(capacity: payload.count + 76)
        writer.append(0x96F3_B83D, width: 4, endianness: .little)  // ih_magic
        writer.append(0, width: 4, endianness: .little)  // ih_load_addr
        writer.append(32, width: 2, endianness: .little)  // ih_hdr_size
        writer.append(0, width: 2, endianness: .little)  // ih_protect_tlv_size
        writer.append(UInt64(payload.count), width: 4, endianness: .little)  // ih_img_size
        writer.append(UInt64(flags), width: 4, endianness: .little)  // ih_flags
        writer.append(UInt64(version.major), width: 1, endianness: .little)
        writer.append(UInt64(version.minor), width: 1, endianness: .little)
        writer.append(UInt64(version.revision), width: 2, endianness: .little)
        writer.append(UInt64(version.build), width: 4, endianness: .little)
        writer.append(0, width: 4, endianness: .little)  // _pad1
        writer.append(bytes: payload)
        let hash = SHA256.digest(writer.bytes)
        writer.append(0x6907, width: 2, endianness: .little)  // IMAGE_TLV_INFO_MAGIC
        writer.append(4 + 4 + 32, width: 2, endianness: .little)  // it_tlv_tot
        writer.append(0x10, width: 2, endianness: .little)  // IMAGE_TLV_SHA256 (u8 type, u8 pad)
        writer.append(32, width: 2, endianness: .little)
        writer.append(bytes: hash)
        return writer.bytes
    }
}
