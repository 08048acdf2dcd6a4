import Synchronization

/// Slicing-by-8 lookup tables for one CRC polynomial, and the loops that use them.
///
/// One register layout serves every width from 1 to 64 bits:
/// - reflected algorithms (`refin`) keep the register in its low `width` bits, reflected, and
///   consume input from the low end;
/// - the others keep it in the high `width` bits of a `UInt64` (shifted left by 64 - width), so
///   the byte that leaves the register is always the top one.
///
/// `entries[k * 256 + i]` is the register after byte `i` followed by `k` zero bytes, from a
/// zero register; eight lookups then consume eight input bytes at once (Intel's "slicing-by-8").
/// Tables depend only on the width, the polynomial and `refin`, and are built once per
/// combination (`CRCTable.shared`): 16 KiB each.
final class CRCTable: Sendable {
    let reflected: Bool
    private let entries: [UInt64]

    private init(width: Int, poly: UInt64, reflected: Bool) {
        self.reflected = reflected
        var entries = [UInt64](repeating: 0, count: 8 * 256)
        if reflected {
            let polynomial = CRCParameters.reflect(poly, width: width)
            for index in 0..<256 {
                var register = UInt64(index)
                for _ in 0..<8 { register = register & 1 != 0 ? (register >> 1) ^ polynomial : register >> 1 }
                entries[index] = register
            }
            for slice in 1..<8 {
                for index in 0..<256 {
                    let previous = entries[(slice - 1) * 256 + index]
                    entries[slice * 256 + index] = (previous >> 8) ^ entries[Int(previous & 0xFF)]
                }
            }
        } else {
            let polynomial = poly << UInt64(64 - width)
            for index in 0..<256 {
                var register = UInt64(index) << 56
                for _ in 0..<8 { register = register >> 63 != 0 ? (register << 1) ^ polynomial : register << 1 }
                entries[index] = register
            }
            for slice in 1..<8 {
                for index in 0..<256 {
                    let previous = entries[(slice - 1) * 256 + index]
                    entries[slice * 256 + index] = (previous << 8) ^ entries[Int(previous >> 56)]
                }
            }
        }
        self.entries = entries
    }

    private struct Key: Hashable {
        var width: Int
        var poly: UInt64
        var reflected: Bool
    }

    private static let cache = Mutex<[Key: CRCTable]>([:])

    /// The tables for `parameters`, built on first use and shared by every caller and thread.
    static func shared(for parameters: CRCParameters) -> CRCTable {
        let key = Key(width: parameters.width, poly: parameters.poly, reflected: parameters.reflectIn)
        return cache.withLock { tables in
            if let table = tables[key] { return table }
            let table = CRCTable(width: key.width, poly: key.poly, reflected: key.reflected)
            tables[key] = table
            return table
        }
    }

    /// Feeds `buffer` through `register` (in this table's layout) and returns the new register.
    func update(_ register: UInt64, with buffer: UnsafeRawBufferPointer) -> UInt64 {
        entries.withUnsafeBufferPointer { table in
            reflected ? Self.reflectedUpdate(register, buffer, table) : Self.normalUpdate(register, buffer, table)
        }
    }

    private static func reflectedUpdate(_ start: UInt64, _ buffer: UnsafeRawBufferPointer,
                                        _ table: UnsafeBufferPointer<UInt64>) -> UInt64 {
        var register = start
        var offset = 0
        let count = buffer.count
        while count - offset >= 8 {
            let word = register ^ UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            register = table[7 * 256 + Int(word & 0xFF)] ^ table[6 * 256 + Int(word >> 8 & 0xFF)]
                ^ table[5 * 256 + Int(word >> 16 & 0xFF)] ^ table[4 * 256 + Int(word >> 24 & 0xFF)]
                ^ table[3 * 256 + Int(word >> 32 & 0xFF)] ^ table[2 * 256 + Int(word >> 40 & 0xFF)]
                ^ table[256 + Int(word >> 48 & 0xFF)] ^ table[Int(word >> 56)]
            offset += 8
        }
        while offset < count {
            register = (register >> 8) ^ table[Int((register ^ UInt64(buffer[offset])) & 0xFF)]
            offset += 1
        }
        return register
    }

    private static func normalUpdate(_ start: UInt64, _ buffer: UnsafeRawBufferPointer,
                                     _ table: UnsafeBufferPointer<UInt64>) -> UInt64 {
        var register = start
        var offset = 0
        let count = buffer.count
        while count - offset >= 8 {
            let word = register ^ UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            register = table[7 * 256 + Int(word >> 56)] ^ table[6 * 256 + Int(word >> 48 & 0xFF)]
                ^ table[5 * 256 + Int(word >> 40 & 0xFF)] ^ table[4 * 256 + Int(word >> 32 & 0xFF)]
                ^ table[3 * 256 + Int(word >> 24 & 0xFF)] ^ table[2 * 256 + Int(word >> 16 & 0xFF)]
                ^ table[256 + Int(word >> 8 & 0xFF)] ^ table[Int(word & 0xFF)]
            offset += 8
        }
        while offset < count {
            register = (register << 8) ^ table[Int((register >> 56) ^ UInt64(buffer[offset]))]
            offset += 1
        }
        return register
    }
}
