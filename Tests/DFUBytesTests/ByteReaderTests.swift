import XCTest
import DFUBytes

final class ByteReaderTests: XCTestCase {
    func testReadsGoldenValuesInBothEndiannesses() throws {
        var reader = ByteReader(hexBytes("01 3412 123456 78563412 0102030405060708 aabb"))
        XCTAssertEqual(try reader.readUnsigned(width: 1, endianness: .big), 0x01)
        XCTAssertEqual(try reader.readUnsigned(width: 2, endianness: .little), 0x1234)
        XCTAssertEqual(try reader.readUnsigned(width: 3, endianness: .big), 0x12_3456)
        XCTAssertEqual(try reader.readUnsigned(width: 4, endianness: .little), 0x1234_5678)
        XCTAssertEqual(try reader.readUnsigned(width: 8, endianness: .big), 0x0102_0304_0506_0708)
        XCTAssertEqual(reader.offset, 18)
        XCTAssertEqual(reader.remainingCount, 2)
        XCTAssertEqual(reader.readRemaining(), [0xAA, 0xBB])
        XCTAssertEqual(reader.readRemaining(), [])
        XCTAssertTrue(reader.isAtEnd)
    }

    func testReadBytesAndSkip() throws {
        var reader = ByteReader([1, 2, 3, 4, 5])
        try reader.skip(count: 1)
        XCTAssertEqual(try reader.readBytes(count: 3), [2, 3, 4])
        XCTAssertEqual(try reader.readBytes(count: 0), [])
        XCTAssertEqual(try reader.readByte(), 5)
    }

    func testNotEnoughBytesSaysWhereAndHowMany() {
        var reader = ByteReader([0x01, 0x02, 0x03])
        XCTAssertNoThrow(try reader.readBytes(count: 2))
        let error = expectError { () throws(ByteReaderError) in
            _ = try reader.readUnsigned(width: 4, endianness: .little)
        }
        XCTAssertEqual(error, .notEnoughBytes(offset: 2, needed: 4, available: 1))
        XCTAssertEqual(error?.description, "not enough bytes at offset 2: needed 4, only 1 available")
        // A failed read consumes nothing.
        XCTAssertEqual(reader.offset, 2)
        XCTAssertEqual(try reader.readByte(), 0x03)
        XCTAssertEqual(expectError { () throws(ByteReaderError) in _ = try reader.readByte() },
                       .notEnoughBytes(offset: 3, needed: 1, available: 0))
        XCTAssertEqual(expectError { () throws(ByteReaderError) in _ = try reader.readBytes(count: 9) },
                       .notEnoughBytes(offset: 3, needed: 9, available: 0))
    }

    func testRejectsUnsupportedWidthsAndNegativeCounts() {
        var reader = ByteReader(Array(repeating: 0, count: 16))
        for width in [0, 5, 6, 7, 9, -1] {
            XCTAssertEqual(expectError { () throws(ByteReaderError) in
                _ = try reader.readUnsigned(width: width, endianness: .big)
            }, .unsupportedWidth(width, offset: 0))
        }
        XCTAssertEqual(expectError { () throws(ByteReaderError) in _ = try reader.readBytes(count: -1) },
                       .negativeCount(-1, offset: 0))
        XCTAssertEqual(expectError { () throws(ByteReaderError) in try reader.skip(count: -2) },
                       .negativeCount(-2, offset: 0))
        XCTAssertEqual(reader.offset, 0)
    }
}
