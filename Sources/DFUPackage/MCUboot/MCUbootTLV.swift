/// One TLV entry: `struct image_tlv { uint16_t it_type; uint16_t it_len; }` and `it_len` bytes.
public struct MCUbootTLV: Sendable, Equatable {
    public let type: MCUbootTLVType
    public let value: [UInt8]
    /// Byte offset of the entry's 4-byte header in the file.
    public let offset: Int
    /// Whether the entry is in the protected TLV area (covered by the hash and signature).
    public let isProtected: Bool

    public init(type: MCUbootTLVType, value: [UInt8], offset: Int, isProtected: Bool) {
        self.type = type
        self.value = value
        self.offset = offset
        self.isProtected = isProtected
    }

    /// Bytes the entry takes in the file: header and value.
    public var encodedSize: Int { MCUbootTLVArea.entryHeaderSize + value.count }
}
