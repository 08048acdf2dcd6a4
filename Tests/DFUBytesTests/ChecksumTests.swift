import XCTest
import DFUBytes

final class ChecksumTests: XCTestCase {
    private let check = Array("123456789".utf8)
    /// 10,007 bytes; the golden values below come from Python's zlib / hashlib on the same bytes.
    private let buffer = pseudoRandomBytes(count: 10_007)

    func testPseudoRandomGeneratorMatchesThePythonOne() {
        XCTAssertEqual(Array(buffer.prefix(4)), hexBytes("aeb9910c"))
    }

    // MARK: CRC32

    func testCRC32CheckValues() {
        XCTAssertEqual(CRC32.checksum(check), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)), 0x414F_A339)
        XCTAssertEqual(CRC32.checksum([]), 0)
        XCTAssertEqual(CRC32.checksum(buffer), 0x5BE0_68E3)
    }

    func testCRC32StreamingEqualsOneShot() {
        for chunkSize in [1, 7, 64, 4_096] {
            var crc = CRC32()
            for chunk in Segmenter.segments(of: buffer, maximumSize: chunkSize) { crc.update(chunk) }
            XCTAssertEqual(crc.value, CRC32.checksum(buffer), "chunks of \(chunkSize)")
        }
        var crc = CRC32()
        crc.update(buffer[..<5_000])
        buffer[5_000...].withUnsafeBytes { crc.update($0) }
        crc.update([])
        XCTAssertEqual(crc.finalize(), 0x5BE0_68E3)
    }

    // MARK: CRC-16/CCITT-FALSE

    func testCRC16CheckValues() {
        XCTAssertEqual(CRC16CCITTFalse.checksum(check), 0x29B1)
        XCTAssertEqual(CRC16CCITTFalse.checksum([]), 0xFFFF)
        XCTAssertEqual(CRC16CCITTFalse.checksum(buffer), 0x84F8)
    }

    func testCRC16TableMatchesABitwiseReference() {
        for length in [0, 1, 2, 31, 256] {
            let bytes = pseudoRandomBytes(count: length, seed: UInt64(length + 17))
            XCTAssertEqual(CRC16CCITTFalse.checksum(bytes), bitwiseCRC16(bytes), "length \(length)")
        }
    }

    func testCRC16StreamingEqualsOneShot() {
        var crc = CRC16CCITTFalse()
        for chunk in Segmenter.segments(of: buffer, maximumSize: 333) { crc.update(chunk) }
        XCTAssertEqual(crc.value, CRC16CCITTFalse.checksum(buffer))
        var sliced = CRC16CCITTFalse()
        sliced.update(buffer[..<1])
        sliced.update(buffer[1...])
        XCTAssertEqual(sliced.finalize(), 0x84F8)
    }

    // MARK: SHA-256

    func testSHA256KnownAnswers() {
        XCTAssertEqual(SHA256.digest(Array("abc".utf8)).hexString,
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.digest([]).hexString,
                       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexString,
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.digest(buffer).hexString,
                       "2379fa71d99d7dcd9119d4f500e25f58fa98fd0ca02be95d0c08ce2cf72e7d7f")
    }

    func testSHA256StreamingEqualsOneShotAndResetsAfterFinalize() {
        let hasher = SHA256Hasher()
        for chunk in Segmenter.segments(of: buffer, maximumSize: 61) { hasher.update(chunk) }
        XCTAssertEqual(hasher.finalize(), SHA256.digest(buffer))
        // finalize() starts over: the next digest is of the new input only.
        hasher.update(Array("ab".utf8))
        hasher.update(Array("c".utf8)[...])
        Array<UInt8>().withUnsafeBytes { hasher.update($0) }
        XCTAssertEqual(hasher.finalize().hexString,
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hasher.finalize(), SHA256.digest([]))
    }

    private func bitwiseCRC16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}
