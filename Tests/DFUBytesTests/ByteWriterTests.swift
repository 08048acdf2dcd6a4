import XCTest
import DFUBytes

final class ByteWriterTests: XCTestCase {
    private let value: UInt64 = 0x0102_0304_0506_0708

    func testGoldenBytesForEveryWidthLittleEndian() {
        let expected: [Int: String] = [1: "08", 2: "0807", 3: "080706", 4: "08070605", 8: "0807060504030201"]
        for (width, hex) in expected {
            var writer = ByteWriter()
            writer.append(value & mask(width), width: width, endianness: .little)
            XCTAssertEqual(writer.bytes, hexBytes(hex), "width \(width)")
        }
    }

    func testGoldenBytesForEveryWidthBigEndian() {
        let expected: [Int: String] = [1: "08", 2: "0708", 3: "060708", 4: "05060708", 8: "0102030405060708"]
        for (width, hex) in expected {
            var writer = ByteWriter()
            writer.append(value & mask(width), width: width, endianness: .big)
            XCTAssertEqual(writer.bytes, hexBytes(hex), "width \(width)")
        }
    }

    func testMixedSequenceAndTypedAppend() {
        var writer = ByteWriter()
        writer.append(byte: 0x01)
        writer.append(UInt16(0x1234), endianness: .little)
        writer.append(UInt32(0xDEAD_BEEF), endianness: .big)
        writer.append(bytes: [0xAA, 0xBB])
        writer.append(0xFF_FFFF, width: 3, endianness: .little)
        writer.append(UInt64.max, width: 8, endianness: .big)
        XCTAssertEqual(writer.bytes, hexBytes("01 3412 deadbeef aabb ffffff ffffffffffffffff"))
        XCTAssertEqual(writer.count, 20)
    }

    func testWriterAndReaderRoundTrip() throws {
        for endianness in Endianness.allCases {
            for width in [1, 2, 3, 4, 8] {
                let sample = 0xF1E2_D3C4_B5A6_9788 & mask(width)
                var writer = ByteWriter()
                writer.append(sample, width: width, endianness: endianness)
                var reader = ByteReader(writer.bytes)
                XCTAssertEqual(try reader.readUnsigned(width: width, endianness: endianness), sample)
                XCTAssertTrue(reader.isAtEnd)
            }
        }
    }

    private func mask(_ width: Int) -> UInt64 {
        width == 8 ? .max : (1 << UInt64(width * 8)) - 1
    }
}
