import XCTest
import DFUBytes

/// The base64 behind the SMP console framing, on RFC 4648 section 10's test vectors and on text
/// that is not base64.
final class Base64Tests: XCTestCase {
    private let rfc4648: [(plain: String, encoded: String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    func testRFC4648Vectors() {
        for vector in rfc4648 {
            XCTAssertEqual(Base64.encode(Array(vector.plain.utf8)), Array(vector.encoded.utf8), vector.plain)
            XCTAssertEqual(try Base64.decode(Array(vector.encoded.utf8)[...]).get(), Array(vector.plain.utf8), vector.encoded)
        }
    }

    func testAllByteValuesRoundTrip() {
        let bytes = (0...255).map(UInt8.init) + pseudoRandomBytes(count: 1000)
        XCTAssertEqual(try Base64.decode(Base64.encode(bytes)[...]).get(), bytes)
    }

    func testRefusalsSayWhere() {
        let refused: [(text: String, index: Int)] = [
            ("Zm9", 0), ("Zm9vY", 4), ("Zm*v", 2), ("Z===", 1), ("Zm=v", 2), ("Zg==Zm9v", 2), ("Zm9v\n", 4), ("Zm 9", 2),
        ]
        for (text, index) in refused {
            XCTAssertEqual(Base64.decode(Array(text.utf8)[...]), .failure(Base64.DecodingError(index: index)), text)
        }
    }

    func testDecodesASliceWithItsOwnIndices() {
        let framed = Array("xxZm9vYg==".utf8)
        XCTAssertEqual(try Base64.decode(framed[2...]).get(), Array("foob".utf8))
        XCTAssertEqual(Base64.decode(Array("xxZm*v".utf8)[2...]), .failure(Base64.DecodingError(index: 2)))
    }
}
