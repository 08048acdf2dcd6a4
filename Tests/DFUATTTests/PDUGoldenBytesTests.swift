import DFUATT
import DFUBytes
import XCTest

/// Golden bytes for every PDU. Each vector was produced by Bumble 0.0.236 (`bumble.att`,
/// e.g. `bytes(ATT_Read_By_Type_Request(starting_handle=1, ending_handle=9,
/// attribute_type=UUID.from_16_bits(0x2803)))`) and parsed back by it; the values are the
/// ones in the comments. The 128-bit UUID is 8EC90001-F315-4F60-9FB8-838830DAEA50 (Nordic's
/// DFU control point), little-endian on the wire.
final class PDUGoldenBytesTests: XCTestCase {
    let dfuControlPoint = BluetoothUUID(string: "8EC90001-F315-4F60-9FB8-838830DAEA50")!
    let dfuControlPointWire = "50 ea da 30 88 83 b8 9f 60 4f 15 f3 01 00 c9 8e"

    /// Decodes `hex` as `T`, compares it with `expected`, re-encodes it, and decodes it as
    /// `ATTPDU` too.
    func assertGolden<T: ATTProtocolDataUnit>(_ expected: T, _ hex: String,
                                              file: StaticString = #filePath, line: UInt = #line) {
        let bytes = hexBytes(hex, file: file, line: line)
        XCTAssertEqual(expected.bytes, bytes, "encoding", file: file, line: line)
        XCTAssertEqual(try T(decoding: bytes), expected, "decoding", file: file, line: line)
        XCTAssertEqual(T(bytes: bytes), expected, file: file, line: line)
        XCTAssertEqual(bytes.first, T.opcode.rawValue, file: file, line: line)
        let any = try? ATTPDU(decoding: bytes)
        XCTAssertEqual(any?.opcode, T.opcode, file: file, line: line)
        XCTAssertEqual(any?.bytes, bytes, file: file, line: line)
        XCTAssertEqual(any?.unit as? T, expected, file: file, line: line)
    }

    func testErrorResponse() {
        // request_opcode_in_error=0x0A, attribute_handle_in_error=0x0023, INSUFFICIENT_AUTHENTICATION
        assertGolden(ATTErrorResponse(requestOpcodeInError: .readRequest, attributeHandleInError: 0x0023,
                                      errorCode: .insufficientAuthentication), "01 0a 23 00 05")
        // request_opcode_in_error=0x10, attribute_handle_in_error=0x0008, ATTRIBUTE_NOT_FOUND
        assertGolden(ATTErrorResponse(requestOpcodeInError: .readByGroupTypeRequest, attributeHandleInError: 0x0008,
                                      errorCode: .attributeNotFound), "01 10 08 00 0a")
    }

    func testExchangeMTU() {
        assertGolden(ATTExchangeMTURequest(clientRxMTU: 517), "02 05 02")  // client_rx_mtu=517
        assertGolden(ATTExchangeMTUResponse(serverRxMTU: 247), "03 f7 00")  // server_rx_mtu=247
    }

    func testFindInformation() {
        assertGolden(ATTFindInformationRequest(startingHandle: 0x0004, endingHandle: 0xFFFF), "04 04 00 ff ff")
        // format=1, (0x0004, 0x2803), (0x0005, 0x2902)
        let short = ATTFindInformationResponse(information: [
            .init(handle: 0x0004, type: BluetoothUUID(uuid16: 0x2803)),
            .init(handle: 0x0005, type: BluetoothUUID(uuid16: 0x2902)),
        ])
        XCTAssertEqual(short.format, .uuid16)
        assertGolden(short, "05 01 04 00 03 28 05 00 02 29")
        // format=2, (0x0010, 8EC90001-...)
        let long = ATTFindInformationResponse(information: [.init(handle: 0x0010, type: dfuControlPoint)])
        XCTAssertEqual(long.format, .uuid128)
        assertGolden(long, "05 02 10 00 " + dfuControlPointWire)
    }

    func testReadByType() {
        assertGolden(ATTReadByTypeRequest(startingHandle: 0x0001, endingHandle: 0x0009,
                                          attributeType: BluetoothUUID(uuid16: 0x2803)), "08 01 00 09 00 03 28")
        assertGolden(ATTReadByTypeRequest(startingHandle: 0x0001, endingHandle: 0xFFFF, attributeType: dfuControlPoint),
                     "08 01 00 ff ff " + dfuControlPointWire)
        // length=7: (0x0002: read|write|notify, value 0x0003, 2A37), (0x0005: read, value 0x0006, 2A38)
        assertGolden(ATTReadByTypeResponse(attributeDataList: [
            .init(attributeHandle: 0x0002, attributeValue: [0x1A, 0x03, 0x00, 0x37, 0x2A]),
            .init(attributeHandle: 0x0005, attributeValue: [0x02, 0x06, 0x00, 0x38, 0x2A]),
        ]), "09 07 02 00 1a 03 00 37 2a 05 00 02 06 00 38 2a")
        // length=21: (0x0010: write|notify, value 0x0011, 8EC90001-...)
        assertGolden(ATTReadByTypeResponse(attributeDataList: [
            .init(attributeHandle: 0x0010, attributeValue: [0x28, 0x11, 0x00] + hexBytes(dfuControlPointWire)),
        ]), "09 15 10 00 28 11 00 " + dfuControlPointWire)
    }

    func testReadAndReadBlob() {
        assertGolden(ATTReadRequest(attributeHandle: 0x0003), "0a 03 00")
        assertGolden(ATTReadResponse(attributeValue: [1, 2, 3, 4]), "0b 01 02 03 04")
        assertGolden(ATTReadResponse(attributeValue: []), "0b")
        assertGolden(ATTReadBlobRequest(attributeHandle: 0x0003, valueOffset: 22), "0c 03 00 16 00")
        assertGolden(ATTReadBlobResponse(partAttributeValue: [0xAA, 0xBB, 0xCC]), "0d aa bb cc")
    }

    func testReadByGroupType() {
        assertGolden(ATTReadByGroupTypeRequest(startingHandle: 0x0001, endingHandle: 0xFFFF,
                                               attributeGroupType: BluetoothUUID(uuid16: 0x2800)), "10 01 00 ff ff 00 28")
        // length=6: (0x0001-0x0007: 1800), (0x0008-0x000B: 180D)
        assertGolden(ATTReadByGroupTypeResponse(attributeDataList: [
            .init(attributeHandle: 0x0001, endGroupHandle: 0x0007, attributeValue: [0x00, 0x18]),
            .init(attributeHandle: 0x0008, endGroupHandle: 0x000B, attributeValue: [0x0D, 0x18]),
        ]), "11 06 01 00 07 00 00 18 08 00 0b 00 0d 18")
        // length=20: (0x000C-0xFFFF: 8EC90001-...)
        assertGolden(ATTReadByGroupTypeResponse(attributeDataList: [
            .init(attributeHandle: 0x000C, endGroupHandle: 0xFFFF, attributeValue: hexBytes(dfuControlPointWire)),
        ]), "11 14 0c 00 ff ff " + dfuControlPointWire)
    }

    func testWrites() {
        assertGolden(ATTWriteRequest(attributeHandle: 0x0004, attributeValue: [0x01, 0x00]), "12 04 00 01 00")
        assertGolden(ATTWriteResponse(), "13")
        assertGolden(ATTWriteCommand(attributeHandle: 0x0011, attributeValue: [0xDE, 0xAD, 0xBE, 0xEF]), "52 11 00 de ad be ef")
    }

    func testNotificationsAndIndications() {
        assertGolden(ATTHandleValueNotification(attributeHandle: 0x0003, attributeValue: [0x10, 0x20]), "1b 03 00 10 20")
        assertGolden(ATTHandleValueIndication(attributeHandle: 0x0013, attributeValue: [0x60, 0x01, 0x01]), "1d 13 00 60 01 01")
        assertGolden(ATTHandleValueConfirmation(), "1e")
    }

    func testUnknownOpcodesDecodeAsOther() throws {
        // Prepare Write Request (0x16) has no type here: carried as is.
        let pdu = try ATTPDU(decoding: hexBytes("16 03 00 00 00 aa"))
        XCTAssertEqual(pdu, .other(opcode: .prepareWriteRequest, parameters: [0x03, 0x00, 0x00, 0x00, 0xAA]))
        XCTAssertEqual(pdu.bytes, hexBytes("16 03 00 00 00 aa"))
        XCTAssertEqual(pdu.description, "Prepare Write Request (0x16)")
        XCTAssertEqual(try ATTPDU(decoding: [0x7F]).description, "opcode 0x7F")
    }

    func testNamesOfOpcodesAndErrorCodes() {
        XCTAssertEqual(ATTOpcode.readByGroupTypeRequest.description, "Read By Group Type Request (0x10)")
        XCTAssertEqual(ATTOpcode.readRequest.responseOpcode, .readResponse)
        XCTAssertNil(ATTOpcode.writeCommand.responseOpcode)
        XCTAssertTrue(ATTOpcode.writeCommand.isCommand)
        XCTAssertEqual(ATTErrorCode.attributeNotFound.description, "Attribute Not Found (0x0A)")
        XCTAssertEqual(ATTErrorCode(0x81).description, "Application Error 0x81")
        XCTAssertEqual(ATTErrorCode(0x55).description, "error code 0x55")
        XCTAssertEqual(ATTErrorCode.outOfRange.description, "Out of Range (0xFF)")
        for code in UInt8(0x01)...UInt8(0x13) {
            XCTAssertNotNil(ATTErrorCode(code).name, "spec code 0x\(String(code, radix: 16)) has a name")
        }
    }
}
