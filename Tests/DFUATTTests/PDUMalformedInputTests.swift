import DFUATT
import DFUBytes
import XCTest

/// Malformed input gives a typed error that names the PDU and the offset, never a crash.
final class PDUMalformedInputTests: XCTestCase {
    func testEmptyAndWrongOpcode() {
        XCTAssertEqual(expectDecodingError(try ATTPDU(decoding: [])), .empty)
        XCTAssertEqual(expectDecodingError(try ATTReadRequest(decoding: [])), .empty)
        XCTAssertEqual(expectDecodingError(try ATTReadRequest(decoding: [0x0B, 0x01, 0x00])),
                       .wrongOpcode(expected: .readRequest, found: .readResponse))
        XCTAssertNil(ATTReadRequest(bytes: [0x0B, 0x01, 0x00]))
    }

    func testTruncatedAndTrailing() {
        let short = expectDecodingError(try ATTErrorResponse(decoding: hexBytes("01 0a 23")))
        XCTAssertEqual(short, .truncated(.errorResponse, offset: 2, needed: 2, available: 1))
        XCTAssertEqual(short?.description, "Error Response (0x01) too short: needed 2 byte(s) at offset 2, only 1 left")
        XCTAssertEqual(expectDecodingError(try ATTExchangeMTURequest(decoding: hexBytes("02 17 00 00"))),
                       .trailingBytes(.exchangeMTURequest, offset: 3, count: 1))
        XCTAssertEqual(expectDecodingError(try ATTExchangeMTUResponse(decoding: [0x03])),
                       .truncated(.exchangeMTUResponse, offset: 1, needed: 2, available: 0))
        XCTAssertEqual(expectDecodingError(try ATTFindInformationRequest(decoding: hexBytes("04 01 00 ff"))),
                       .truncated(.findInformationRequest, offset: 3, needed: 2, available: 1))
        XCTAssertEqual(expectDecodingError(try ATTReadRequest(decoding: hexBytes("0a 01"))),
                       .truncated(.readRequest, offset: 1, needed: 2, available: 1))
        XCTAssertEqual(expectDecodingError(try ATTReadBlobRequest(decoding: hexBytes("0c 01 00 16 00 00"))),
                       .trailingBytes(.readBlobRequest, offset: 5, count: 1))
        XCTAssertEqual(expectDecodingError(try ATTWriteRequest(decoding: [0x12, 0x04])),
                       .truncated(.writeRequest, offset: 1, needed: 2, available: 1))
        XCTAssertEqual(expectDecodingError(try ATTWriteCommand(decoding: [0x52])),
                       .truncated(.writeCommand, offset: 1, needed: 2, available: 0))
        XCTAssertEqual(expectDecodingError(try ATTHandleValueNotification(decoding: [0x1B, 0x03])),
                       .truncated(.handleValueNotification, offset: 1, needed: 2, available: 1))
        XCTAssertEqual(expectDecodingError(try ATTHandleValueIndication(decoding: [0x1D])),
                       .truncated(.handleValueIndication, offset: 1, needed: 2, available: 0))
        XCTAssertEqual(expectDecodingError(try ATTWriteResponse(decoding: [0x13, 0x00])),
                       .trailingBytes(.writeResponse, offset: 1, count: 1))
        XCTAssertEqual(expectDecodingError(try ATTHandleValueConfirmation(decoding: [0x1E, 0xFF])),
                       .trailingBytes(.handleValueConfirmation, offset: 1, count: 1))
    }

    func testUUIDLengths() {
        // A 4-byte (32-bit) UUID is not allowed in ATT; neither is 3 bytes.
        XCTAssertEqual(expectDecodingError(try ATTReadByTypeRequest(decoding: hexBytes("08 01 00 ff ff 00 28 00 00"))),
                       .invalidUUIDLength(.readByTypeRequest, offset: 5, length: 4))
        XCTAssertEqual(expectDecodingError(try ATTReadByGroupTypeRequest(decoding: hexBytes("10 01 00 ff ff 00"))),
                       .invalidUUIDLength(.readByGroupTypeRequest, offset: 5, length: 1))
        XCTAssertEqual(expectDecodingError(try ATTReadByGroupTypeRequest(decoding: hexBytes("10 01 00"))),
                       .truncated(.readByGroupTypeRequest, offset: 3, needed: 2, available: 0))
    }

    func testFindInformationResponseLists() {
        XCTAssertEqual(expectDecodingError(try ATTFindInformationResponse(decoding: hexBytes("05 03 04 00 03 28"))),
                       .invalidFormat(.findInformationResponse, format: 3))
        XCTAssertEqual(expectDecodingError(try ATTFindInformationResponse(decoding: hexBytes("05 01 04 00 03"))),
                       .invalidListLength(.findInformationResponse, listBytes: 3, elementLength: 4))
        XCTAssertEqual(expectDecodingError(try ATTFindInformationResponse(decoding: hexBytes("05 02 04 00 03 28"))),
                       .invalidListLength(.findInformationResponse, listBytes: 4, elementLength: 18))
        XCTAssertEqual(expectDecodingError(try ATTFindInformationResponse(decoding: hexBytes("05 01"))),
                       .invalidListLength(.findInformationResponse, listBytes: 0, elementLength: 4))
        XCTAssertEqual(expectDecodingError(try ATTFindInformationResponse(decoding: hexBytes("05"))),
                       .truncated(.findInformationResponse, offset: 1, needed: 1, available: 0))
    }

    func testReadByTypeAndGroupTypeResponseLists() {
        XCTAssertEqual(expectDecodingError(try ATTReadByTypeResponse(decoding: hexBytes("09 01 02"))),
                       .invalidElementLength(.readByTypeResponse, length: 1, minimum: 2))
        XCTAssertEqual(expectDecodingError(try ATTReadByTypeResponse(decoding: hexBytes("09 07 02 00 1a 03 00 37"))),
                       .invalidListLength(.readByTypeResponse, listBytes: 6, elementLength: 7))
        XCTAssertEqual(expectDecodingError(try ATTReadByTypeResponse(decoding: hexBytes("09 07"))),
                       .invalidListLength(.readByTypeResponse, listBytes: 0, elementLength: 7))
        XCTAssertEqual(expectDecodingError(try ATTReadByGroupTypeResponse(decoding: hexBytes("11 03 01 00 07"))),
                       .invalidElementLength(.readByGroupTypeResponse, length: 3, minimum: 4))
        XCTAssertEqual(expectDecodingError(try ATTReadByGroupTypeResponse(decoding: hexBytes("11 06 01 00 07 00 00 18 08 00"))), .invalidListLength(.readByGroupTypeResponse, listBytes: 8, elementLength: 6))
        XCTAssertEqual(expectDecodingError(try ATTReadByGroupTypeResponse(decoding: [])), .empty)
    }

    /// Every prefix of every golden vector, and every one-byte corruption of them, decodes or
    /// throws; none crashes.
    func testTruncationsAndCorruptionsNeverCrash() {
        let vectors = [
            "01 0a 23 00 05", "02 05 02", "03 f7 00", "04 04 00 ff ff", "05 01 04 00 03 28 05 00 02 29",
            "08 01 00 09 00 03 28", "09 07 02 00 1a 03 00 37 2a 05 00 02 06 00 38 2a", "0a 03 00", "0b 01 02",
            "0c 03 00 16 00", "0d aa", "10 01 00 ff ff 00 28", "11 06 01 00 07 00 00 18 08 00 0b 00 0d 18",
            "12 04 00 01 00", "13", "52 11 00 de", "1b 03 00 10 20", "1d 13 00 60", "1e",
        ]
        var decoded = 0
        var refused = 0
        for vector in vectors {
            let bytes = hexBytes(vector)
            var inputs = (0...bytes.count).map { Array(bytes.prefix($0)) }
            for index in bytes.indices {
                for value: UInt8 in [0x00, 0x01, 0x02, 0x03, 0x7F, 0xFF] {
                    var corrupted = bytes
                    corrupted[index] = value
                    inputs.append(corrupted)
                }
            }
            for input in inputs {
                if let pdu = ATTPDU(bytes: input) {
                    decoded += 1
                    // What decodes re-encodes to a PDU that decodes to the same value.
                    XCTAssertEqual(ATTPDU(bytes: pdu.bytes), pdu, "\(input)")
                } else {
                    refused += 1
                }
            }
        }
        XCTAssertGreaterThan(decoded, 0)
        XCTAssertGreaterThan(refused, 0)
    }
}
