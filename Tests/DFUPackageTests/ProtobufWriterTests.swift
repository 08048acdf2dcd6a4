import DFUBytes
import DFUPackage
import XCTest

/// The protobuf wire writer against the encoding guide's golden bytes, and read back.
final class ProtobufWriterTests: XCTestCase {
    func testGoldenBytesFromTheEncodingGuide() {
        // "08 96 01": field 1, varint 150; "12 07 74 65 73 74 69 6e 67": field 2, "testing".
        XCTAssertEqual(ProtobufWriter.varintField(1, 150).hexString, "089601")
        XCTAssertEqual(ProtobufWriter.bytesField(2, Array("testing".utf8)).hexString, "120774657374696e67")
        XCTAssertEqual(ProtobufWriter.varint(0), [0x00])
        XCTAssertEqual(ProtobufWriter.varint(UInt64.max).hexString, "ffffffffffffffffff01")
    }

    func testWhatItWritesReadsBack() throws {
        let nested = ProtobufWriter.varintField(1, 3) + ProtobufWriter.bytesField(2, [1, 2, 3])
        var reader = ProtobufReader(ProtobufWriter.varintField(5, 300) + ProtobufWriter.bytesField(8, nested))
        let fields = try reader.readAllFields()
        XCTAssertEqual(fields.map(\.number), [5, 8])
        XCTAssertEqual(fields[0].value, .varint(300))
        XCTAssertEqual(fields[1].value, .lengthDelimited(ArraySlice(nested)))
    }
}
