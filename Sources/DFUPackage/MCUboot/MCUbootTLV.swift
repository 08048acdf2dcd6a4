/// One TLV entry: `struct image_tlv { uint16_t it_type; uint16_t it_len; }` and `it_len` bytes.
public struct MCUbootTLV: Sendable, Equatable {
    /// The TLV's type.
    public let type: MCUbootTLVType
    /// The TLV's value bytes.
    public let value: [UInt8]
    /// Byte offset of the entry's 4-byte header in the file.
    public let offset: Int
    /// Whether the entry is in the protected TLV area (covered by the hash and signature).
    package let isProtected: Bool

    /// A TLV of `type` found at `offset` of the image, in the protected area or not.
    public init(type: MCUbootTLVType, value: [UInt8], offset: Int, isProtected: Bool) {
        self.type = type
        self.value = value
        self.offset = offset
        self.isProtected = isProtected
    }

    /// Bytes the entry takes in the file: header and value.
    package var encodedSize: Int { MCUbootTLVArea.entryHeaderSize + value.count }
}
