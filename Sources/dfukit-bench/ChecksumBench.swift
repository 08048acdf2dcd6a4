import DFUBytes
import Foundation

/// Checksum throughput: each algorithm over one 64 MiB buffer, best of three passes, in a
/// release build. Table CRCs of every width share one loop, so a few catalogue entries stand
/// for all (reflected and not, 8 to 64 bits); CRC-32/ISO-HDLC and Adler-32 are zlib's.
enum ChecksumBench {
    struct Row: Codable {
        var name: String
        var bytes: Int
        var seconds: Double
        var megabytes_per_second: Double
    }

    static func rows(bytes: Int = 64 << 20) -> [Row] {
        let data = pseudoRandomBytes(bytes)
        var sink: UInt64 = 0
        var rows: [Row] = []
        let crcs = ["CRC-8/SMBUS", "CRC-16/XMODEM", "CRC-16/MODBUS", "CRC-32/ISCSI", "CRC-32/BZIP2", "CRC-64/XZ",
                    "CRC-64/ECMA-182", "CRC-32/ISO-HDLC"]
        for name in crcs {
            guard let algorithm = CRCCatalogue.algorithm(named: name) else { continue }
            rows.append(measure("crc('\(name)')", data) { sink ^= algorithm.checksum($0) })
        }
        rows.append(measure("adler32 (zlib)", data) { sink ^= UInt64(ArithmeticChecksums.adler32($0)) })
        rows.append(measure("fletcher32", data) { sink ^= UInt64(ArithmeticChecksums.fletcher32($0)) })
        rows.append(measure("sum(bytes, 32)", data) { sink ^= ArithmeticChecksums.sum($0, bits: 32) })
        if sink == 1 { print("") }  // keeps the results alive
        return rows
    }

    private static func measure(_ name: String, _ data: [UInt8], _ body: ([UInt8]) -> Void) -> Row {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            body(data)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return Row(name: name, bytes: data.count, seconds: best, megabytes_per_second: Double(data.count) / best / 1e6)
    }
}
