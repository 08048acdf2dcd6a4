import DFUBytes

/// The 64-byte header Dialog's `mkimage single` puts in front of a DA14580/585/586/531
/// application (SDK 5 and 6): what a SUOTA receiver reads from the first block and what the
/// secondary bootloader checks before it runs the code. Little-endian
/// (mkimage.c `MKIMAGE_LITTLE_ENDIAN`, image.h `struct image_header`):
///
/// | offset | size | field | mkimage writes |
/// |---|---|---|---|
/// | 0 | 2 | signature | `70 51` ("pQ") |
/// | 2 | 1 | valid flag | `AA` (the receiver writes its own: `FF`, then `AA` once the image is whole) |
/// | 3 | 1 | image id | `FF` (the receiver writes its own: higher is newer) |
/// | 4 | 4 | code size | bytes of code after the header |
/// | 8 | 4 | CRC | CRC-32 (zlib) of the clear code |
/// | 12 | 16 | version | the version string, NUL-terminated, padded with `FF` |
/// | 28 | 4 | timestamp | seconds since 1970 |
/// | 32 | 1 | flags | `SUOTAImageFlags` (encrypted) |
/// | 33 | 31 | reserved | `FF` |
public struct SUOTAImageHeader: Sendable, Equatable {
    /// The header's size in bytes.
    public static let size = 64
    /// "pQ" (`IMAGE_HEADER_SIGNATURE1`, `IMAGE_HEADER_SIGNATURE2`).
    public static let signature: [UInt8] = [0x70, 0x51]
    /// `STATUS_VALID_IMAGE`.
    package static let validMark: UInt8 = 0xAA
    package static let versionSize = 16
    package static let reservedSize = 31

    /// The first two bytes: "pQ" in a valid header.
    public var signature: [UInt8]
    package var validFlag: UInt8
    package var imageID: UInt8
    /// Bytes of code after the header.
    public var codeSize: UInt32
    /// The CRC-32 of the code, as the header stores it.
    public var crc32: UInt32
    /// The 16 version bytes as stored.
    package var versionField: [UInt8]
    /// When the image was made, in seconds since 1970.
    public var timestamp: UInt32
    /// The image flags (encrypted or not).
    public var flags: SUOTAImageFlags
    package var reserved: [UInt8]

    /// A header as `mkimage single` makes it for `code`.
    public init(code: [UInt8], version: String, timestamp: UInt32, flags: SUOTAImageFlags = []) {
        self.signature = Self.signature
        self.validFlag = Self.validMark
        self.imageID = 0xFF
        self.codeSize = UInt32(code.count)
        self.crc32 = CRC32.checksum(code)
        self.versionField = Self.versionField(version)
        self.timestamp = timestamp
        self.flags = flags
        self.reserved = [UInt8](repeating: 0xFF, count: Self.reservedSize)
    }

    /// Reads the header from the first 64 bytes of `bytes`.
    /// - Throws: `SUOTAImageHeaderError.tooShort` when there are fewer.
    public init(decoding bytes: [UInt8]) throws(SUOTAImageHeaderError) {
        guard bytes.count >= Self.size else { throw .tooShort(bytes.count) }
        var reader = ByteReader(Array(bytes.prefix(Self.size)))
        do {
            signature = try reader.readBytes(count: 2)
            validFlag = try reader.readByte()
            imageID = try reader.readByte()
            codeSize = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            crc32 = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            versionField = try reader.readBytes(count: Self.versionSize)
            timestamp = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            flags = SUOTAImageFlags(rawValue: try reader.readByte())
            reserved = try reader.readBytes(count: Self.reservedSize)
        } catch {
            throw .tooShort(bytes.count)  // unreachable: 64 bytes were there
        }
    }

    /// The 64 bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: Self.size)
        writer.append(bytes: signature.prefix(2))
        writer.append(byte: validFlag)
        writer.append(byte: imageID)
        writer.append(codeSize, endianness: .little)
        writer.append(crc32, endianness: .little)
        writer.append(bytes: Self.padded(versionField, to: Self.versionSize))
        writer.append(timestamp, endianness: .little)
        writer.append(byte: flags.rawValue)
        writer.append(bytes: Self.padded(reserved, to: Self.reservedSize))
        return writer.bytes
    }

    package var hasSignature: Bool { signature == Self.signature }

    /// The version string: the bytes up to the first NUL or `FF` (as the iOS SUOTA library's
    /// `HeaderInfo` reads it), as ASCII.
    public var version: String {
        let text = versionField.prefix { $0 != 0 && $0 != 0xFF }
        return String(decoding: text.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// Whether two headers name the same firmware for a SUOTA receiver: the same 16 version
    /// bytes and timestamp (app_suotar.c `app_read_image_headers` answers SAME_IMG_ERR then).
    package func isSameFirmware(as other: SUOTAImageHeader) -> Bool {
        versionField == other.versionField && timestamp == other.timestamp
    }

    /// `snprintf(version, 16, "%s", text)` over a field filled with `FF`.
    static func versionField(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8.prefix(versionSize - 1))
        return bytes + [0] + [UInt8](repeating: 0xFF, count: versionSize - bytes.count - 1)
    }

    private static func padded(_ bytes: [UInt8], to count: Int) -> [UInt8] {
        Array(bytes.prefix(count)) + [UInt8](repeating: 0xFF, count: max(0, count - bytes.count))
    }
}

/// Why bytes are not a SUOTA single image header.
public enum SUOTAImageHeaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes end before the 64-byte header does.
    case tooShort(Int)

    public var description: String {
        switch self {
        case let .tooShort(count): return "the file has \(count) bytes, fewer than the 64-byte SUOTA image header"
        }
    }
}
