import XCTest
import DFUBytes

/// Sums, XOR, Fletcher and Adler. Fletcher vectors for "abcde" ... are those of Wikipedia's
/// "Fletcher's checksum" article; the values over "123456789" and the pseudo-random buffers come
/// from a direct Python transcription of each definition (and Python's zlib.adler32).
final class ArithmeticChecksumTests: XCTestCase {
    private let check = Array("123456789".utf8)
    private let buffer = pseudoRandomBytes(count: 10_007)
    /// Long enough for Fletcher's sums to be reduced in the middle (past 65,536 items).
    private let long = pseudoRandomBytes(count: 300_000, seed: 5)

    func testSumsAreModuloTheirWidth() {
        XCTAssertEqual(ArithmeticChecksums.sum(check, bits: 8), 0xDD)
        XCTAssertEqual(ArithmeticChecksums.sum(check, bits: 16), 0x01DD)
        XCTAssertEqual(ArithmeticChecksums.sum(check, bits: 32), 0x01DD)
        XCTAssertEqual(ArithmeticChecksums.sum(check, bits: 64), 0x01DD)
        XCTAssertEqual(ArithmeticChecksums.sum(long, bits: 16), 0x288C)
        XCTAssertEqual(ArithmeticChecksums.sum(long, bits: 32), 0x0247_288C)
        XCTAssertEqual(ArithmeticChecksums.sum([], bits: 8), 0)
        XCTAssertEqual(ArithmeticChecksums.sum([0xFF, 0x01], bits: 8), 0)
    }

    func testXOR8() {
        XCTAssertEqual(ArithmeticChecksums.xor8(check), 0x31)
        XCTAssertEqual(ArithmeticChecksums.xor8([]), 0)
        XCTAssertEqual(ArithmeticChecksums.xor8([0xA5, 0x5A, 0x0F]), 0xF0)
    }

    /// Fletcher-16 over bytes and Fletcher-32 over little-endian 16-bit words (an odd last
    /// byte is a word's low byte): "abcde" has an odd length, "abcdef" an even one.
    func testFletcher() {
        let cases: [(input: [UInt8], fletcher16: UInt16, fletcher32: UInt32, what: String)] = [
            (Array("abcde".utf8), 0xC8F0, 0xF04F_C729, "abcde"),
            (Array("abcdef".utf8), 0x2057, 0x5650_2D2A, "abcdef"),
            (Array("abcdefgh".utf8), 0x0627, 0xEBE1_9591, "abcdefgh"),
            (check, 0x1EDE, 0xDF09_D509, "123456789"),
            (buffer, 0x7432, 0x4EE9_F140, "10,007 bytes"),
            (long, 0xFBFD, 0x446B_40BD, "300,000 bytes"),
            ([], 0, 0, "no bytes"),
        ]
        for testCase in cases {
            XCTAssertEqual(ArithmeticChecksums.fletcher16(testCase.input), testCase.fletcher16, testCase.what)
            XCTAssertEqual(ArithmeticChecksums.fletcher32(testCase.input), testCase.fletcher32, testCase.what)
        }
    }

    func testAdler32() {
        XCTAssertEqual(ArithmeticChecksums.adler32(Array("Wikipedia".utf8)), 0x11E6_0398)
        XCTAssertEqual(ArithmeticChecksums.adler32(check), 0x091E_01DE)
        XCTAssertEqual(ArithmeticChecksums.adler32(buffer), 0x0B65_82BB)
        XCTAssertEqual(ArithmeticChecksums.adler32([]), 1)
    }
}
