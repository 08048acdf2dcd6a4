import DFUBytes

/// A minimal unsigned MCUboot image around a payload (protocols.md section 5): a 32-byte
/// header, the payload, and a TLV area holding only the SHA256 TLV, so the benchmark can
/// upload images of any size to the simulated SMP server.
enum GeneratedMCUbootImage {
    static func make(payload: [UInt8]) -> (image: [UInt8], hash: [UInt8]) {
        var header = ByteWriter()
        header.append(0x96F3_B83D, width: 4, endianness: .little)   // magic
        header.append(0, width: 4, endianness: .little)             // load address
        header.append(32, width: 2, endianness: .little)            // header size
        header.append(0, width: 2, endianness: .little)             // protected TLV size
        header.append(UInt64(payload.count), width: 4, endianness: .little)
        header.append(0, width: 4, endianness: .little)             // flags
        header.append(1, width: 1, endianness: .little)             // version 1.0.0+0
        header.append(0, width: 1, endianness: .little)
        header.append(0, width: 2, endianness: .little)
        header.append(0, width: 4, endianness: .little)
        header.append(0, width: 4, endianness: .little)             // pad
        let hashed = header.bytes + payload
        let hash = SHA256.digest(hashed)
        var tlvs = ByteWriter()
        tlvs.append(0x6907, width: 2, endianness: .little)          // TLV info magic
        tlvs.append(4 + 4 + 32, width: 2, endianness: .little)      // total, info header included
        tlvs.append(0x10, width: 2, endianness: .little)            // SHA256
        tlvs.append(32, width: 2, endianness: .little)
        tlvs.append(bytes: hash)
        return (hashed + tlvs.bytes, hash)
    }
}
