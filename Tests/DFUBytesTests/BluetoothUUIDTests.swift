import XCTest
import DFUBytes

final class BluetoothUUIDTests: XCTestCase {
    func testSixteenBitFormExpandsOnTheBaseUUID() throws {
        let short = try XCTUnwrap(BluetoothUUID(string: "180D"))
        XCTAssertEqual(short.bytes, hexBytes("0000180d 0000 1000 8000 00805f9b34fb"))
        XCTAssertEqual(short.uuid16, 0x180D)
        XCTAssertEqual(short.uuid32, 0x0000_180D)
        XCTAssertEqual(short.description, "180D")
        XCTAssertEqual(short.uuidString, "0000180D-0000-1000-8000-00805F9B34FB")
    }

    func testAllTextFormsOfOneUUIDAreEqual() throws {
        let forms = ["180D", "180d", "0000180D", "0000180D-0000-1000-8000-00805F9B34FB",
                     "0000180d-0000-1000-8000-00805f9b34fb", "0000180D00001000800000805F9B34FB"]
        let parsed = try forms.map { try XCTUnwrap(BluetoothUUID(string: $0), $0) }
        for uuid in parsed {
            XCTAssertEqual(uuid, BluetoothUUID(uuid16: 0x180D))
            XCTAssertEqual(uuid.hashValue, BluetoothUUID(uuid16: 0x180D).hashValue)
        }
        XCTAssertEqual(Set(parsed).count, 1)
    }

    func testThirtyTwoBitForm() throws {
        let uuid = try XCTUnwrap(BluetoothUUID(string: "1234ABCD"))
        XCTAssertEqual(uuid.bytes, hexBytes("1234abcd 0000 1000 8000 00805f9b34fb"))
        XCTAssertEqual(uuid.uuid32, 0x1234_ABCD)
        XCTAssertNil(uuid.uuid16)
        XCTAssertTrue(uuid.isSIGBased)
        // 32-bit UUIDs travel as 128-bit on ATT.
        XCTAssertEqual(uuid.littleEndianBytes, hexBytes("fb349b5f 80000080 00100000 cdab3412"))
    }

    func testVendor128BitForm() throws {
        // Nordic's legacy DFU service.
        let uuid = try XCTUnwrap(BluetoothUUID(string: "00001530-1212-EFDE-1523-785FEABCD123"))
        XCTAssertFalse(uuid.isSIGBased)
        XCTAssertNil(uuid.uuid16)
        XCTAssertNil(uuid.uuid32)
        XCTAssertEqual(uuid.description, "00001530-1212-EFDE-1523-785FEABCD123")
        XCTAssertEqual(uuid.littleEndianBytes, hexBytes("23d1bcea5f782315 deef121230150000"))
        XCTAssertNotEqual(uuid, BluetoothUUID(uuid16: 0x1530))
    }

    func testLittleEndianWireForms() throws {
        XCTAssertEqual(BluetoothUUID(uuid16: 0x2A37).littleEndianBytes, [0x37, 0x2A])
        XCTAssertEqual(BluetoothUUID(littleEndianBytes: [0x37, 0x2A]), BluetoothUUID(uuid16: 0x2A37))
        XCTAssertEqual(BluetoothUUID(littleEndianBytes: [0xCD, 0xAB, 0x34, 0x12]), BluetoothUUID(uuid32: 0x1234_ABCD))
        let vendor = try XCTUnwrap(BluetoothUUID(string: "8EC90001-F315-4F60-9FB8-838830DAEA50"))
        XCTAssertEqual(BluetoothUUID(littleEndianBytes: vendor.littleEndianBytes), vendor)
        // A 128-bit wire form on the base UUID equals its 16-bit alias.
        XCTAssertEqual(BluetoothUUID(littleEndianBytes: hexBytes("fb349b5f800000800010000037 2a 0000")),
                       BluetoothUUID(uuid16: 0x2A37))
        XCTAssertNil(BluetoothUUID(littleEndianBytes: [0x01, 0x02, 0x03]))
        XCTAssertNil(BluetoothUUID(littleEndianBytes: []))
    }

    func testRejectsBadText() {
        let bad = ["", "18D", "180DD", "180G", "0x180D", " 180D", "180D ", "18-0D", "+180",
                   "0000180D-0000-1000-8000-00805F9B34F", "0000180D-0000-1000-8000-00805F9B34FBA",
                   "0000180D0-000-1000-8000-00805F9B34FB", "0000180D-0000-1000-8000-00805F9B34FG",
                   "0000180D-0000-1000-8000-00805F9B-34FB", "{0000180D-0000-1000-8000-00805F9B34FB}",
                   "１８０Ｄ"]
        for text in bad {
            XCTAssertNil(BluetoothUUID(string: text), "accepted \"\(text)\"")
        }
    }
}
