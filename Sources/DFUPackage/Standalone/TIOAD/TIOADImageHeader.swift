import DFUBytes

/// The 44-byte core header (`imgFixedHdr_t`) TI's BLE5-Stack puts in front of every OAD image
/// (SimpleLink CC13xx/CC26xx SDK `source/ti/common/cc26xx/oad/oad_image_header.h`), packed,
/// little-endian. Segments (`TIOADSegment`) follow it.
///
/// | offset | size | field | an application is built with (oad_image_header_app.c) |
/// |---|---|---|---|
/// | 0 | 8 | imgID | `OAD_IMG_ID_VAL`: "CC26x2R1", "CC13x2R1", ... |
/// | 8 | 4 | crc32 | `oad_image_tool` writes the CRC-32 of bytes 12 to the end |
/// | 12 | 1 | bimVer | `BIM_VER` 3 |
/// | 13 | 1 | metaVer | `META_VER` 1 |
/// | 14 | 2 | techType | 0xFFFE (BLE) |
/// | 16 | 1 | imgCpStat | 0xFF |
/// | 17 | 1 | crcStat | 0xFF (the device writes 0xFE, CRC_VALID, once it checked the CRC) |
/// | 18 | 1 | imgType | `TIOADImageType` |
/// | 19 | 1 | imgNo | 1 |
/// | 20 | 4 | imgVld | 0xFFFFFFFF |
/// | 24 | 4 | len | the whole image, header included (`oad_image_tool` fills it in) |
/// | 28 | 4 | prgEntry | the program entry address |
/// | 32 | 4 | softVer | "0001" |
/// | 36 | 4 | imgEndAddr | the address of the image's last byte |
/// | 40 | 2 | hdrLen | 44 (`offsetof(rfu) + sizeof(rfu)`) |
/// | 42 | 2 | rfu | 0xFFFF |
package struct TIOADImageHeader: Sendable, Equatable {
    public static let size = 44
    /// Where the CRC starts: `IMG_DATA_OFFSET`, the offset of `bimVer`. `CRC32_calc` (crc32.c)
    /// and `computeCRC32.py` skip `imgID` and `crc32` and cover the rest up to `len`.
    package static let crcStart = 12
    /// `BIM_VER` and `META_VER`: a device refuses an image built for other versions
    /// (`OAD_INCOMPATIBLE_FILE`).
    package static let bimVersion: UInt8 = 3
    package static let metadataVersion: UInt8 = 1
    /// `CRC_VALID`, `CRC_INVALID` (crcStat) and `DEFAULT_STATE` (unprogrammed flash).
    package static let crcValid: UInt8 = 0xFE
    package static let crcInvalid: UInt8 = 0xFC
    package static let defaultState: UInt8 = 0xFF
    /// The `imgID` values `oad_image_header.h` defines per device family.
    package static let publishedImageIDs: [String] = ["CC26x2R1", "CC13x2R1", "CC13x4  ", "CC26x3  ", "CC26x4  ", "OAD IMG "]

    package var imageID: [UInt8]
    public var crc32: UInt32
    package var bimVersion: UInt8
    package var metadataVersion: UInt8
    package var technology: TIOADWirelessTechnology
    package var copyStatus: UInt8
    package var crcStatus: UInt8
    package var imageType: TIOADImageType
    package var imageNumber: UInt8
    package var validation: UInt32
    /// `len`: bytes of the whole image, this header included.
    public var length: UInt32
    package var programEntry: UInt32
    public var softwareVersion: [UInt8]
    package var endAddress: UInt32
    package var headerLength: UInt16
    package var reserved: UInt16

    /// A header as an application is built with it (`oad_image_header_app.c`), before
    /// `oad_image_tool` fills in `len` and `crc32`.
    public init(imageID: String = "CC26x2R1", imageType: TIOADImageType = .applicationStackLibrary,
                softwareVersion: String = "0001", length: UInt32 = 0xFFFF_FFFF, programEntry: UInt32 = 0,
                endAddress: UInt32 = 0) {
        self.imageID = Array(imageID.utf8.prefix(8)) + [UInt8](repeating: 0x20, count: max(0, 8 - imageID.utf8.count))
        self.crc32 = 0xFFFF_FFFF
        self.bimVersion = Self.bimVersion
        self.metadataVersion = Self.metadataVersion
        self.technology = .ble
        self.copyStatus = Self.defaultState
        self.crcStatus = Self.defaultState
        self.imageType = imageType
        self.imageNumber = 1
        self.validation = 0xFFFF_FFFF
        self.length = length
        self.programEntry = programEntry
        self.softwareVersion = Array(softwareVersion.utf8.prefix(4)) + [UInt8](repeating: 0, count: max(0, 4 - softwareVersion.utf8.count))
        self.endAddress = endAddress
        self.headerLength = UInt16(Self.size)
        self.reserved = 0xFFFF
    }

    /// Reads the first 44 bytes of `bytes`.
    /// - Throws: `TIOADImageError.tooShort` when there are fewer.
    public init(decoding bytes: [UInt8]) throws(TIOADImageError) {
        guard bytes.count >= Self.size else { throw .tooShort(bytes.count) }
        var reader = ByteReader(Array(bytes.prefix(Self.size)))
        do {
            imageID = try reader.readBytes(count: 8)
            crc32 = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            bimVersion = try reader.readByte()
            metadataVersion = try reader.readByte()
            technology = TIOADWirelessTechnology(rawValue: UInt16(try reader.readUnsigned(width: 2, endianness: .little)))
            copyStatus = try reader.readByte()
            crcStatus = try reader.readByte()
            imageType = TIOADImageType(rawValue: try reader.readByte())
            imageNumber = try reader.readByte()
            validation = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            length = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            programEntry = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            softwareVersion = try reader.readBytes(count: 4)
            endAddress = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            headerLength = UInt16(try reader.readUnsigned(width: 2, endianness: .little))
            reserved = UInt16(try reader.readUnsigned(width: 2, endianness: .little))
        } catch {
            throw .tooShort(bytes.count)  // unreachable: 44 bytes were there
        }
    }

    /// The 44 bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: Self.size)
        writer.append(bytes: imageID.prefix(8))
        writer.append(crc32, endianness: .little)
        writer.append(byte: bimVersion)
        writer.append(byte: metadataVersion)
        writer.append(technology.rawValue, endianness: .little)
        writer.append(byte: copyStatus)
        writer.append(byte: crcStatus)
        writer.append(byte: imageType.rawValue)
        writer.append(byte: imageNumber)
        writer.append(validation, endianness: .little)
        writer.append(length, endianness: .little)
        writer.append(programEntry, endianness: .little)
        writer.append(bytes: softwareVersion.prefix(4))
        writer.append(endAddress, endianness: .little)
        writer.append(headerLength, endianness: .little)
        writer.append(reserved, endianness: .little)
        return writer.bytes
    }

    /// What a client writes to Image Identify (`imgIdentifyPld_t`, oad.h; 22 bytes): imgID,
    /// bimVer, metaVer, imgCpStat, crcStat, imgType, imgNo, len, softVer. TI's client
    /// (`TIOADEoadImageReader.getHeaderForImageNotify`) copies them from the file.
    package var identifyPayload: [UInt8] {
        var writer = ByteWriter(capacity: 22)
        writer.append(bytes: imageID.prefix(8))
        writer.append(byte: bimVersion)
        writer.append(byte: metadataVersion)
        writer.append(byte: copyStatus)
        writer.append(byte: crcStatus)
        writer.append(byte: imageType.rawValue)
        writer.append(byte: imageNumber)
        writer.append(length, endianness: .little)
        writer.append(bytes: softwareVersion.prefix(4))
        return writer.bytes
    }

    /// `imgID` as text (printable ASCII; other bytes as `\xNN`).
    package var imageIDText: String { Self.text(imageID) }

    /// `softVer` as text when it is printable ASCII ("0001"), else in hex.
    package var softwareVersionText: String {
        softwareVersion.allSatisfy { (0x20...0x7E).contains($0) } ? Self.text(softwareVersion) : softwareVersion.hexString
    }

    /// Whether `imgID` is one `oad_image_header.h` defines.
    package var hasPublishedImageID: Bool { Self.publishedImageIDs.contains { Array($0.utf8) == imageID } }

    /// The CRC-32 `oad_image_tool` writes and the device checks: zlib's CRC-32 of `image` from
    /// byte 12 up to `length` (nil when the image is shorter than that).
    public static func crc(of image: [UInt8], length: Int) -> UInt32? {
        guard length >= crcStart, image.count >= length else { return nil }
        var crc = CRC32()
        crc.update(image[crcStart..<length])
        return crc.finalize()
    }

    static func text(_ bytes: [UInt8]) -> String {
        bytes.map { (0x20...0x7E).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String(format2: $0) }.joined()
    }
}

extension String {
    fileprivate init(format2 byte: UInt8) {
        self = (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}

/// Why bytes are not a TI OAD image at all.
public enum TIOADImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file has this many bytes, fewer than the 44-byte header.
    case tooShort(Int)

    public var description: String {
        switch self {
        case let .tooShort(count): return "\(count) bytes are too few for the 44-byte OAD image header"
        }
    }
}
