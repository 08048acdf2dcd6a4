import CCryptoShim

/// AES-128 on one block, through Crypto++: the Bluetooth security function `e` (Core Vol 3,
/// Part H, 2.2.1) that LE legacy pairing's `c1` and `s1` are made of. Key and blocks are most
/// significant byte first, as the specification writes its values.
package enum AES128 {
    /// `e(key, block)`; both must be 16 bytes.
    package static func encrypt(key: [UInt8], block: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && block.count == 16, "AES128: key and block are 16 bytes")
        var output = [UInt8](repeating: 0, count: 16)
        let status = key.withUnsafeBufferPointer { key in
            block.withUnsafeBufferPointer { block in
                output.withUnsafeMutableBufferPointer { out in
                    dfukit_aes128_encrypt(key.baseAddress, block.baseAddress, out.baseAddress)
                }
            }
        }
        precondition(status == DFUKIT_CRYPTO_OK, "AES128: Crypto++ failed (\(status))")
        return output
    }
}
