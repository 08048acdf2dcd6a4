import XCTest
import DFUBytes

final class HexTests: XCTestCase {
    func testParsesPlainSpacedAndColonSeparatedText() {
        XCTAssertEqual([UInt8](hex: "0a1BfF"), [0x0A, 0x1B, 0xFF])
        XCTAssertEqual([UInt8](hex: "0a 1b ff"), [0x0A, 0x1B, 0xFF])
        XCTAssertEqual([UInt8](hex: "0A:1B:FF"), [0x0A, 0x1B, 0xFF])
        XCTAssertEqual([UInt8](hex: " 0a\n1b\t ff "), [0x0A, 0x1B, 0xFF])
        XCTAssertEqual([UInt8](hex: ""), [])
    }

    func testRejectsMalformedText() {
        for text in ["0", "0a1", "0g", "0x0a", "0 a", "0a-1b", "é0"] {
            XCTAssertNil([UInt8](hex: text), "accepted \"\(text)\"")
        }
    }

    func testHexStringIsLowercaseWithoutSeparators() {
        XCTAssertEqual([UInt8]([0x00, 0x0A, 0xAB, 0xFF]).hexString, "000aabff")
        XCTAssertEqual([UInt8]().hexString, "")
        let all = (0...255).map { UInt8($0) }
        XCTAssertEqual([UInt8](hex: all.hexString), all)
        // Slices and other byte sequences too.
        XCTAssertEqual(all[254...].hexString, "feff")
        XCTAssertEqual(all.prefix(2).hexString, "0001")
        XCTAssertEqual("AZ".utf8.hexString, "415a")
    }
}
