import CZlib

/// Checksums made of additions and XORs rather than polynomial division: plain sums, XOR,
/// Fletcher's and Adler's checksums.
public enum ArithmeticChecksums {
    /// The widths `sum(_:bits:)` accepts.
    package static let sumWidths = [8, 16, 32, 64]

    /// The bytes added up as unsigned numbers, modulo 2^`bits` (`bits`: 8, 16, 32 or 64).
    public static func sum(_ bytes: [UInt8], bits: Int) -> UInt64 {
        precondition(sumWidths.contains(bits), "sum over \(bits) bits")
        let total = bytes.reduce(UInt64(0)) { $0 &+ UInt64($1) }
        return bits == 64 ? total : total & ((1 << UInt64(bits)) - 1)
    }

    /// Every byte XORed together (the NMEA 0183 checksum, a longitudinal parity byte).
    package static func xor8(_ bytes: [UInt8]) -> UInt8 {
        bytes.reduce(0, ^)
    }

    /// Fletcher-16 over 8-bit bytes: two sums modulo 255 starting at 0, `sum1 += byte`,
    /// `sum2 += sum1`; the result is `sum2 << 8 | sum1`. "abcde" -> 0xC8F0, "abcdef" -> 0x2057
    /// (the test vectors of Wikipedia's "Fletcher's checksum" article).
    package static func fletcher16(_ bytes: [UInt8]) -> UInt16 {
        let (sum1, sum2) = fletcherSums(bytes.lazy.map { UInt64($0) }, modulus: 255)
        return UInt16(sum2 << 8 | sum1)
    }

    /// Fletcher-32 over 16-bit little-endian words (bytes `b0 b1` make `b1 << 8 | b0`; an odd
    /// last byte is the low byte of a word whose high byte is 0): two sums modulo 65535 starting
    /// at 0; the result is `sum2 << 16 | sum1`. "abcde" -> 0xF04FC729, "abcdef" -> 0x56502D2A
    /// (Wikipedia's test vectors, computed on little-endian words).
    public static func fletcher32(_ bytes: [UInt8]) -> UInt32 {
        let words = stride(from: 0, to: bytes.count, by: 2).lazy.map { index -> UInt64 in
            let high = index + 1 < bytes.count ? UInt64(bytes[index + 1]) : 0
            return high << 8 | UInt64(bytes[index])
        }
        let (sum1, sum2) = fletcherSums(words, modulus: 65535)
        return UInt32(sum2 << 16 | sum1)
    }

    /// Fletcher's two running sums, reduced only every 65,536 items: in between they stay far
    /// below 2^64 (sum2 < 2^16 * 2^16 * 2^16), which avoids a division per item.
    private static func fletcherSums<Items: Sequence>(_ items: Items, modulus: UInt64) -> (UInt64, UInt64)
        where Items.Element == UInt64 {
        var sum1: UInt64 = 0, sum2: UInt64 = 0, pending = 0
        for item in items {
            sum1 += item
            sum2 += sum1
            pending += 1
            if pending == 65_536 {
                sum1 %= modulus
                sum2 %= modulus
                pending = 0
            }
        }
        return (sum1 % modulus, sum2 % modulus)
    }

    /// Adler-32 (RFC 1950), computed by zlib's `adler32_z`: "Wikipedia" -> 0x11E60398.
    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        let initial = adler32_z(0, nil, 0)
        let value = bytes.withUnsafeBytes { buffer -> UInt in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return initial }
            return adler32_z(initial, base.assumingMemoryBound(to: Bytef.self), buffer.count)
        }
        return UInt32(truncatingIfNeeded: value)
    }
}
