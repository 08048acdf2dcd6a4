import DFUBytes

/// LE legacy pairing's confirm value and key generation functions (Core Vol 3, Part H, 2.2.3
/// and 2.2.4), over AES-128. Every value is most significant byte first, as the specification
/// writes them; PDUs carry them least significant byte first (reverse them there).
package enum LegacyPairingCrypto {
    /// c1(k, r, preq, pres, iat, rat, ia, ra) = e(k, e(k, r XOR p1) XOR p2), with
    /// p1 = pres || preq || rat' || iat' and p2 = padding || ia || ra.
    /// - Parameters:
    ///   - preq, pres: the 7-byte Pairing Request / Response PDUs as sent (code first); as the
    ///     specification's 56-bit values they are these bytes reversed.
    ///   - iat, rat: address types (0 public, 1 random); ia, ra: addresses as written (MSB first).
    package static func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, rat: UInt8,
                          ia: [UInt8], ra: [UInt8]) -> [UInt8] {
        let p1 = Array(pres.reversed()) + Array(preq.reversed()) + [rat & 1, iat & 1]
        let p2 = [UInt8](repeating: 0, count: 4) + ia + ra
        let first = AES128.encrypt(key: k, block: zip(r, p1).map { $0 ^ $1 })
        return AES128.encrypt(key: k, block: zip(first, p2).map { $0 ^ $1 })
    }

    /// s1(k, r1, r2) = e(k, r1' || r2'), r1' and r2' the least significant 64 bits of each: the
    /// STK is s1(TK, Srand, Mrand).
    package static func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) -> [UInt8] {
        AES128.encrypt(key: k, block: Array(r1.suffix(8)) + Array(r2.suffix(8)))
    }
}
