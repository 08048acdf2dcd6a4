/// A TLV area after the image: `struct image_tlv_info { uint16_t it_magic; uint16_t it_tlv_tot; }`
/// followed by TLV entries. `it_tlv_tot` counts the 4-byte info header too.
package struct MCUbootTLVArea: Sendable, Equatable {
    /// `IMAGE_TLV_INFO_MAGIC`: the main (unprotected) area.
    package static let mainMagic: UInt16 = 0x6907
    /// `IMAGE_TLV_PROT_INFO_MAGIC`: the protected area, hashed and signed with the image.
    package static let protectedMagic: UInt16 = 0x6908
    /// Size of `struct image_tlv_info`.
    package static let infoSize = 4
    /// Size of `struct image_tlv` (type and length).
    package static let entryHeaderSize = 4

    package let magic: UInt16
    /// Byte offset of the info header in the file.
    package let offset: Int
    /// `it_tlv_tot`: the area's size in bytes, info header included.
    package let totalSize: Int
    package let tlvs: [MCUbootTLV]

    package init(magic: UInt16, offset: Int, totalSize: Int, tlvs: [MCUbootTLV]) {
        self.magic = magic
        self.offset = offset
        self.totalSize = totalSize
        self.tlvs = tlvs
    }

    package var isProtected: Bool { magic == Self.protectedMagic }

    /// Offset of the first byte after the area.
    package var endOffset: Int { offset + totalSize }

    /// Reads the area whose info header is at `offset` in `bytes`.
    /// - Parameters:
    ///   - magic: the magic the area must start with.
    ///   - expectedSize: the size the image header declares (`ih_protect_tlv_size`), if any.
    /// - Throws: `MCUbootImageError` naming the offset of whatever does not fit.
    static func parse(_ bytes: [UInt8], at offset: Int, magic: UInt16,
                      expectedSize: Int?) throws(MCUbootImageError) -> MCUbootTLVArea {
        guard offset + infoSize <= bytes.count else {
            throw .missingTLVArea(offset: offset, magic: magic, fileSize: bytes.count)
        }
        let foundMagic = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        guard foundMagic == magic else {
            throw .badTLVAreaMagic(offset: offset, expected: magic, found: foundMagic)
        }
        let totalSize = Int(bytes[offset + 2]) | Int(bytes[offset + 3]) << 8
        if let expectedSize, totalSize != expectedSize {
            throw .protectedTLVSizeMismatch(offset: offset + 2, header: expectedSize, area: totalSize)
        }
        guard totalSize >= infoSize, offset + totalSize <= bytes.count else {
            throw .tlvAreaSizeOutOfRange(offset: offset + 2, magic: magic, size: totalSize,
                                         available: bytes.count - offset)
        }
        let end = offset + totalSize
        var tlvs: [MCUbootTLV] = []
        var position = offset + infoSize
        while position < end {
            guard position + entryHeaderSize <= end else {
                throw .truncatedTLVHeader(offset: position, areaEnd: end)
            }
            let type = MCUbootTLVType(rawValue: UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8)
            let length = Int(bytes[position + 2]) | Int(bytes[position + 3]) << 8
            let valueStart = position + entryHeaderSize
            guard valueStart + length <= end else {
                throw .tlvPastAreaEnd(offset: position, type: type, length: length, areaEnd: end)
            }
            tlvs.append(MCUbootTLV(type: type, value: Array(bytes[valueStart..<valueStart + length]),
                                   offset: position, isProtected: magic == protectedMagic))
            position = valueStart + length
        }
        return MCUbootTLVArea(magic: magic, offset: offset, totalSize: totalSize, tlvs: tlvs)
    }
}
