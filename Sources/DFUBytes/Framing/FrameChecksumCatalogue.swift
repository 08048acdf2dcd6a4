/// The checksum algorithms a framing's trailer may name (`checksum: NAME` in a profile): every
/// CRC of the CRC RevEng catalogue by name or alias, any case (`CRCCatalogue`), the older
/// `crc16` / `crc32` names, and the arithmetic checks `xor8`, `fletcher16`, `fletcher32`,
/// `adler32` and `sum8` / `sum16` / `sum32` / `sum64`.
package enum FrameChecksumCatalogue {
    /// An algorithm: its width in bytes (1...8) and its value over the bytes it covers.
    package typealias Algorithm = (width: Int, compute: @Sendable ([UInt8]) -> UInt64)

    /// The algorithm called `name`, or nil (also for a catalogue CRC wider than 64 bits).
    package static func lookup(_ name: String) -> Algorithm? {
        if let arithmetic = arithmetic[name.lowercased()] { return arithmetic }
        guard let algorithm = CRCCatalogue.algorithm(named: legacyNames[name.lowercased()] ?? name),
              algorithm.parameters.width <= 64
        else { return nil }
        return ((algorithm.parameters.width + 7) / 8, { algorithm.checksum($0) })
    }

    /// The names `lookup` knows, for error messages and suggestions.
    package static let names: [String] = legacyNames.keys.sorted() + arithmetic.keys.sorted() + CRCCatalogue.names

    /// The names profiles used before the catalogue, as its names.
    private static let legacyNames = ["crc16": "CRC-16/IBM-3740", "crc32": "CRC-32/ISO-HDLC"]

    private static let arithmetic: [String: Algorithm] = [
        "xor8": (1, { UInt64(ArithmeticChecksums.xor8($0)) }),
        "fletcher16": (2, { UInt64(ArithmeticChecksums.fletcher16($0)) }),
        "fletcher32": (4, { UInt64(ArithmeticChecksums.fletcher32($0)) }),
        "adler32": (4, { UInt64(ArithmeticChecksums.adler32($0)) }),
        "sum8": (1, { ArithmeticChecksums.sum($0, bits: 8) }),
        "sum16": (2, { ArithmeticChecksums.sum($0, bits: 16) }),
        "sum32": (4, { ArithmeticChecksums.sum($0, bits: 32) }),
        "sum64": (8, { ArithmeticChecksums.sum($0, bits: 64) }),
    ]
}
