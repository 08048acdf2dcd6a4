import XCTest
import DFUBytes

/// The CRC RevEng catalogue's entries against their check values, the table-driven loop against
/// a bit-at-a-time reference written here from the model's definition, and golden values from
/// Python's crcmod 1.7 (Debian's python3-crcmod) over the shared pseudo-random buffer.
final class CRCCatalogueTests: XCTestCase {
    private let check = Array("123456789".utf8)
    private let buffer = pseudoRandomBytes(count: 10_007)

    func testEveryEntryGivesTheCataloguesCheckValue() {
        for algorithm in CRCCatalogue.algorithms {
            XCTAssertEqual(algorithm.checksum(check), algorithm.check, algorithm.name)
        }
    }

    func testTheCatalogueHasEveryEightSixteenThirtyTwoAndSixtyFourBitEntry() {
        let widths = Dictionary(grouping: CRCCatalogue.algorithms, by: \.parameters.width).mapValues(\.count)
        XCTAssertEqual(widths, [8: 20, 16: 31, 32: 12, 64: 7])
        XCTAssertEqual(Set(CRCCatalogue.names.map { $0.uppercased() }).count, CRCCatalogue.names.count,
                       "names and aliases are unique")
    }

    func testNamesAndAliasesAreFoundIgnoringCase() throws {
        let iscsi = try XCTUnwrap(CRCCatalogue.algorithm(named: "CRC-32/ISCSI"))
        for alias in ["CRC-32C", "crc-32c", "CRC-32/Castagnoli", "crc-32/base91-c", "CRC-32/INTERLAKEN"] {
            XCTAssertEqual(CRCCatalogue.algorithm(named: alias)?.name, iscsi.name, alias)
        }
        XCTAssertEqual(CRCCatalogue.algorithm(named: "xmodem")?.name, "CRC-16/XMODEM")
        XCTAssertEqual(CRCCatalogue.algorithm(named: "CRC-16/CCITT-FALSE")?.name, "CRC-16/IBM-3740")
        XCTAssertEqual(CRCCatalogue.algorithm(named: "CRC-16/CCITT")?.name, "CRC-16/KERMIT")
        XCTAssertEqual(CRCCatalogue.algorithm(named: "CRC-32")?.name, "CRC-32/ISO-HDLC")
        XCTAssertEqual(CRCCatalogue.algorithm(named: "CRC-8")?.name, "CRC-8/SMBUS")
        XCTAssertEqual(CRCCatalogue.algorithm(named: "CRC-64")?.name, "CRC-64/ECMA-182")
        XCTAssertNil(CRCCatalogue.algorithm(named: "CRC-16/XMODEN"))
        XCTAssertNil(CRCCatalogue.algorithm(named: "CRC-24/BLE"), "only 8-, 16-, 32- and 64-bit CRCs")
        XCTAssertNil(CRCCatalogue.algorithm(named: ""))
    }

    func testGoldenValuesFromCrcmod() throws {
        // crcmod.mkCrcFun(poly | 1 << width, initCrc=init ^ xorout, rev=refin, xorOut=xorout)
        let golden: [(String, UInt64)] = [
            ("CRC-16/XMODEM", 0x0616), ("CRC-16/MODBUS", 0x6D78), ("CRC-32C", 0xA3A8_A497),
            ("CRC-64/XZ", 0x69CF_B029_2AE6_A21D), ("CRC-8/SMBUS", 0xDA), ("CRC-32/ISO-HDLC", 0x5BE0_68E3),
        ]
        for (name, value) in golden {
            XCTAssertEqual(try XCTUnwrap(CRCCatalogue.algorithm(named: name)).checksum(buffer), value, name)
        }
    }

    /// Lengths around the 8-byte blocks of the slicing loop, for every entry.
    func testTheTableLoopMatchesABitAtATimeReferenceForEveryEntry() {
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 100] {
            let bytes = pseudoRandomBytes(count: length, seed: UInt64(length) + 3)
            for algorithm in CRCCatalogue.algorithms {
                XCTAssertEqual(algorithm.checksum(bytes), bitwise(bytes, algorithm.parameters),
                               "\(algorithm.name), \(length) bytes")
            }
        }
    }

    func testStreamingInAnyChunksEqualsOneShot() throws {
        for name in ["CRC-16/XMODEM", "CRC-16/MODBUS", "CRC-32/ISO-HDLC", "CRC-64/WE", "CRC-8/ROHC"] {
            let algorithm = try XCTUnwrap(CRCCatalogue.algorithm(named: name))
            for chunkSize in [1, 3, 8, 13, 4_096] {
                var crc = CRC(algorithm.parameters)
                for chunk in Segmenter.segments(of: buffer, maximumSize: chunkSize) { crc.update(chunk) }
                XCTAssertEqual(crc.finalize(), algorithm.checksum(buffer), "\(name) in chunks of \(chunkSize)")
            }
        }
    }

    func testTheZlibAndTablePathsAgreeOnCRC32() {
        // CRC-32/ISO-HDLC goes to zlib; the same polynomial without the final XOR (JAMCRC) goes
        // through the table: the two differ by exactly that XOR.
        let zlib = CRC.checksum(buffer, CRCCatalogue.algorithm(named: "CRC-32/ISO-HDLC")!.parameters)
        let jamcrc = CRC.checksum(buffer, CRCCatalogue.algorithm(named: "JAMCRC")!.parameters)
        XCTAssertEqual(zlib, UInt64(CRC32.checksum(buffer)))
        XCTAssertEqual(zlib ^ 0xFFFF_FFFF, jamcrc)
    }

    func testParametersThatReflectOnlyTheInputOrOnlyTheOutput() {
        // CRC-12/UMTS (refin=false refout=true, check 0xdaf) is outside the 8/16/32/64 set the
        // catalogue lookup serves, but the model computes it.
        let umts = CRCParameters(width: 12, poly: 0x80F, initial: 0, reflectIn: false, reflectOut: true, xorOut: 0)
        XCTAssertEqual(CRC.checksum(check, umts), 0xDAF)
        let reflectedInOnly = CRCParameters(width: 16, poly: 0x1021, initial: 0xFFFF, reflectIn: true,
                                            reflectOut: false, xorOut: 0)
        XCTAssertEqual(CRC.checksum(buffer, reflectedInOnly), bitwise(buffer, reflectedInOnly))
    }

    /// The Williams model one bit at a time: each input bit (least significant first when
    /// `refin`) enters the top of a `width`-bit register that shifts left.
    private func bitwise(_ bytes: [UInt8], _ parameters: CRCParameters) -> UInt64 {
        let width = UInt64(parameters.width)
        let top: UInt64 = 1 << (width - 1)
        let mask: UInt64 = width == 64 ? .max : (1 << width) - 1
        var register = parameters.initial
        for byte in bytes {
            for bit in 0..<8 {
                let input = parameters.reflectIn ? (byte >> bit) & 1 : (byte >> (7 - bit)) & 1
                let feedback = (register & top != 0) != (input == 1)
                register = (register << 1) & mask
                if feedback { register ^= parameters.poly }
            }
        }
        if parameters.reflectOut {
            var reflected: UInt64 = 0
            for bit in 0..<width where register & (1 << bit) != 0 { reflected |= 1 << (width - 1 - bit) }
            register = reflected
        }
        return register ^ parameters.xorOut
    }
}
