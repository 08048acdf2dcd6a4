/// Why bytes are not a well-formed MCUboot image. Every case names the byte offset (in the file)
/// of the field that is wrong or of the data that is missing.
public enum MCUbootImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer than the 32 bytes of `struct image_header`.
    case tooShortForHeader(byteCount: Int)
    /// `ih_magic` (offset 0) is not 0x96f3b83d.
    case badMagic(found: UInt32)
    /// `ih_hdr_size` (offset 8) is smaller than the header itself.
    case headerSizeTooSmall(headerSize: Int)
    /// `ih_hdr_size` + `ih_img_size` (offset 12) runs past the end of the file.
    case payloadPastEnd(payloadEnd: Int, fileSize: Int)
    /// The file ends before the 4-byte info header of a TLV area at `offset`.
    case missingTLVArea(offset: Int, magic: UInt16, fileSize: Int)
    /// The TLV area at `offset` starts with another magic.
    case badTLVAreaMagic(offset: Int, expected: UInt16, found: UInt16)
    /// `it_tlv_tot` of the protected area (at `offset`) differs from the header's `ih_protect_tlv_size`.
    case protectedTLVSizeMismatch(offset: Int, header: Int, area: Int)
    /// `it_tlv_tot` (at `offset`) is below 4 or runs past the end of the file.
    case tlvAreaSizeOutOfRange(offset: Int, magic: UInt16, size: Int, available: Int)
    /// A TLV's 4-byte header at `offset` does not fit in its area.
    case truncatedTLVHeader(offset: Int, areaEnd: Int)
    /// The TLV at `offset` declares a length that runs past the end of its area.
    case tlvPastAreaEnd(offset: Int, type: MCUbootTLVType, length: Int, areaEnd: Int)

    /// Byte offset in the file where the problem is.
    public var offset: Int {
        switch self {
        case let .tooShortForHeader(byteCount): return byteCount
        case .badMagic: return 0
        case .headerSizeTooSmall: return 8
        case .payloadPastEnd: return 12
        case let .missingTLVArea(offset, _, _), let .badTLVAreaMagic(offset, _, _),
             let .protectedTLVSizeMismatch(offset, _, _), let .tlvAreaSizeOutOfRange(offset, _, _, _),
             let .truncatedTLVHeader(offset, _), let .tlvPastAreaEnd(offset, _, _, _):
            return offset
        }
    }

    public var description: String {
        "offset \(MCUbootHex.short(offset)): " + problem
    }

    private var problem: String {
        switch self {
        case let .tooShortForHeader(byteCount):
            return "the file has \(byteCount) bytes, fewer than the \(MCUbootImageHeader.size)-byte MCUboot header"
        case let .badMagic(found):
            if found == MCUbootImageHeader.magic.byteSwapped {
                return "the magic is big-endian (imgtool sign -e big); only little-endian images are read"
            }
            return "magic is \(MCUbootHex.word(found)), expected \(MCUbootHex.word(MCUbootImageHeader.magic)): "
                + "not an MCUboot image (sign it with imgtool)"
        case let .headerSizeTooSmall(headerSize):
            return "ih_hdr_size is \(headerSize), smaller than the \(MCUbootImageHeader.size)-byte header"
        case let .payloadPastEnd(payloadEnd, fileSize):
            return "ih_hdr_size + ih_img_size = \(payloadEnd) bytes, but the file has \(fileSize): the image is truncated"
        case let .missingTLVArea(_, magic, fileSize):
            return "the file ends (\(fileSize) bytes) where the \(Self.areaName(magic)) should start: the image is truncated"
        case let .badTLVAreaMagic(_, expected, found):
            return "\(Self.areaName(expected)) magic is \(MCUbootHex.halfword(found)), expected \(MCUbootHex.halfword(expected))"
        case let .protectedTLVSizeMismatch(_, header, area):
            return "the protected TLV area says it has \(area) bytes, the header's ih_protect_tlv_size says \(header)"
        case let .tlvAreaSizeOutOfRange(_, magic, size, available):
            return "\(Self.areaName(magic)) size \(size) is out of range (at least \(MCUbootTLVArea.infoSize), "
                + "at most the \(available) bytes left in the file)"
        case let .truncatedTLVHeader(offset, areaEnd):
            return "a TLV header needs 4 bytes, but its area ends after \(areaEnd - offset)"
        case let .tlvPastAreaEnd(offset, type, length, areaEnd):
            return "TLV \(type) has length \(length), which runs \(offset + MCUbootTLVArea.entryHeaderSize + length - areaEnd) "
                + "bytes past the end of its area (\(MCUbootHex.short(areaEnd)))"
        }
    }

    private static func areaName(_ magic: UInt16) -> String {
        magic == MCUbootTLVArea.protectedMagic ? "protected TLV area" : "TLV area"
    }
}
