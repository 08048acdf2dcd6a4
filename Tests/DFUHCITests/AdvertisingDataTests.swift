import XCTest
import DFUBytes
import DFUGATT
@testable import DFUHCI

final class AdvertisingDataTests: XCTestCase {
    func testFlagsNameAnd16BitUUIDsFromBumble() {
        let data = AdvertisingData(bytes: bytes("02 01 06 0b 09 44 46 55 2d 42 55 4d 42 4c 45 05 03 0d 18 0f 18"))
        XCTAssertEqual(data.flags, 0x06)
        XCTAssertEqual(data.completeLocalName, "DFU-BUMBLE")
        XCTAssertEqual(data.localName, "DFU-BUMBLE")
        XCTAssertEqual(data.serviceUUIDs, [BluetoothUUID(uuid16: 0x180D), BluetoothUUID(uuid16: 0x180F)])
        XCTAssertFalse(data.isTruncated)
        XCTAssertEqual(data.bytes, bytes("02 01 06 0b 09 44 46 55 2d 42 55 4d 42 4c 45 05 03 0d 18 0f 18"))
    }

    func testShortenedNameAnd128BitUUIDFromBumble() {
        let data = AdvertisingData(bytes: bytes("04 08 44 46 55 11 07 6f 5e 4d 3c 2b 1a 52 9c 8a 4b 3c 7e 00 00 f1 d0"))
        XCTAssertNil(data.completeLocalName)
        XCTAssertEqual(data.localName, "DFU")
        XCTAssertEqual(data.serviceUUIDs, [BluetoothUUID(string: "D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F")!])
    }

    func testTruncatedStructureKeepsWhatCameBefore() {
        let data = AdvertisingData(bytes: bytes("02 01 06 09 09 44 46"))
        XCTAssertEqual(data.flags, 0x06)
        XCTAssertNil(data.localName)
        XCTAssertTrue(data.isTruncated)
        // Zero padding ends the data.
        XCTAssertEqual(AdvertisingData(bytes: bytes("02 01 06 00 00 00")).structures.count, 1)
    }

    func testAdvertisementMergesScanResponse() {
        var seen = HCIAdvertisement(address: DeviceAddress(value: 1), addressType: .publicDevice, isConnectable: true,
                                    advertisingData: AdvertisingData(bytes: bytes("03 03 0d 18")), rssi: -40)
        seen.merge(data: bytes("04 09 41 42 43"), isScanResponse: true, isConnectable: false, rssi: -42)
        XCTAssertEqual(seen.advertisement, Advertisement(address: DeviceAddress(value: 1), name: "ABC",
                                                         serviceUUIDs: [BluetoothUUID(uuid16: 0x180D)], rssi: -42))
        XCTAssertTrue(seen.isConnectable)
    }

    /// Manufacturer Specific Data (AD type 0xFF, Supplement Part A 1.4): the company identifier
    /// little-endian, then the company's bytes; one too short for its identifier is left out.
    func testManufacturerDataIsReadWithItsCompany() {
        // Flags; 0xFF: company 0x02FF (Silicon Labs), data 01 a2 07; 0xFF with a single byte.
        let data = AdvertisingData(bytes: bytes("02 01 06 06 ff ff 02 01 a2 07 02 ff 59"))
        XCTAssertEqual(data.manufacturerData, [ManufacturerData(companyID: 0x02FF, data: [0x01, 0xA2, 0x07])])
        var seen = HCIAdvertisement(address: DeviceAddress(value: 1), addressType: .publicDevice, isConnectable: true,
                                    advertisingData: data, rssi: -40)
        seen.merge(data: bytes("05 ff 59 00 aa bb"), isScanResponse: true, isConnectable: false, rssi: -41)
        XCTAssertEqual(seen.advertisement.manufacturerData, [ManufacturerData(companyID: 0x02FF, data: [0x01, 0xA2, 0x07]),
                                                             ManufacturerData(companyID: 0x0059, data: [0xAA, 0xBB])])
    }
}
