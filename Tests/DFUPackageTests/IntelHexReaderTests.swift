import DFUPackage
import XCTest

/// Records below were written by hand; each checksum is the two's complement of the byte sum.
final class IntelHexReaderTests: XCTestCase {
    func testDataRecordsWithGapAreFilledWithFF() throws {
        let image = try IntelHexReader.parse("""
            :10010000000102030405060708090A0B0C0D0E0F77
            :04011400DEADBEEFAF
            :00000001FF
            """)
        XCTAssertEqual(image.baseAddress, 0x0100)
        XCTAssertEqual(image.bytes, Array(0...15) + [0xFF, 0xFF, 0xFF, 0xFF] + [0xDE, 0xAD, 0xBE, 0xEF])
        XCTAssertNil(image.startAddress)
    }

    func testExtendedLinearAddressAndStartLinearAddress() throws {
        // Base 0x0800_0000; data at 0x0800_FFFC, then a new base 0x0801_0000 with data at its start.
        let image = try IntelHexReader.parse("""
            :020000040800F2\r
            :04FFFC0001020304F7\r
            :020000040801F1\r
            :020000000506F3\r
            :0400000508000131BD\r
            :00000001FF\r

            """)
        XCTAssertEqual(image.baseAddress, 0x0800_FFFC)
        XCTAssertEqual(image.bytes, [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(image.startAddress, .linear(0x0800_0131))
    }

    func testExtendedSegmentAddressAndStartSegmentAddress() throws {
        let image = try IntelHexReader.parse("""
            :020000021000EC
            :02002000AABB79
            :0400000312345678E5
            :00000001FF
            """)
        XCTAssertEqual(image.baseAddress, 0x1_0020)
        XCTAssertEqual(image.bytes, [0xAA, 0xBB])
        XCTAssertEqual(image.startAddress, .segment(codeSegment: 0x1234, instructionPointer: 0x5678))
    }

    func testBadChecksumNamesLineAndBothValues() {
        let error = catchPackageError { () throws(PackageError) in
            try IntelHexReader.parse("""
                :10010000000102030405060708090A0B0C0D0E0F77
                :04011400DEADBEEFAE
                :00000001FF
                """, fileName: "app.hex")
        }
        XCTAssertEqual(error, .badIntelHex(file: "app.hex", line: 2, problem: "checksum is 0xAE, expected 0xAF"))
        XCTAssertTrue(error?.description.hasPrefix("app.hex:2: invalid Intel HEX") ?? false)
    }

    func testMalformedLinesAreRejectedWithTheirLine() {
        let cases: [(text: String, line: Int, fragment: String)] = [
            ("10010000\n:00000001FF", 1, "does not start with ':'"),
            (":02010000010\n:00000001FF", 1, "odd number"),
            (":020100000102ZZ\n:00000001FF", 1, "not a hex digit"),
            (":030100000102FF\n:00000001FF", 1, "length field says 3"),
            (":00000001FF\n:02002000AABB79", 2, "after the end-of-file"),
            (":00000006FA\n:00000001FF", 1, "unknown record type 0x06"),
            (":02002000AABB79\n", 2, "no end-of-file record"),
            (":02002000AABB79\n:02002100AABB78\n:00000001FF", 2, "overlaps data from line 1"),
            (":00000001FF", 1, "no data records"),
        ]
        for testCase in cases {
            let error = catchPackageError { () throws(PackageError) in try IntelHexReader.parse(testCase.text, fileName: "x.hex") }
            guard case let .badIntelHex(file, line, problem)? = error else {
                XCTFail("\(testCase.text): expected badIntelHex, got \(String(describing: error))"); continue
            }
            XCTAssertEqual(file, "x.hex")
            XCTAssertEqual(line, testCase.line, testCase.text)
            XCTAssertTrue(problem.contains(testCase.fragment), "\(testCase.text): \(problem)")
        }
    }

    func testHugeGapIsRefused() {
        // Data at 0 and at 0x0800_0000 would need 128 MiB of 0xFF.
        let error = catchPackageError { () throws(PackageError) in
            try IntelHexReader.parse(":02000000AABB99\n:020000040800F2\n:02000000AABB99\n:00000001FF\n")
        }
        guard case let .badIntelHex(_, _, problem)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(problem.contains("spans"), problem)
    }

    func testReadFromMissingFileIsIOError() {
        guard case .io? = catchPackageError({ () throws(PackageError) in try IntelHexReader.read(path: "/nonexistent/x.hex") })
        else { return XCTFail("expected io error") }
    }
}
