@testable import DFUEngine
import DFUProfile
import XCTest

/// Golden bytes for the silabs-ota profile's OTA Control words (AN1086 "Silicon Labs OTA GATT
/// Service": 0x00 begins, 0x03 ends; the application reboots into the AppLoader on any write,
/// 0x00 by convention) and its AppLoader error table.
final class SilabsProfileMessageTests: XCTestCase {
    private func profile() throws -> Profile {
        try ProfileLoader.load(path: EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/silabs-ota.yaml").path)
    }

    func testControlWords() throws {
        let profile = try profile()
        func request(_ command: String) throws -> [UInt8] {
            try MessageEncoder.encode(XCTUnwrap(profile.commands[command]).request, in: Scope([:])).bytes
        }
        XCTAssertEqual(try request("enter_ota"), [0x00])
        XCTAssertEqual(try request("begin"), [0x00])
        XCTAssertEqual(try request("end"), [0x03])
        XCTAssertTrue(profile.commands.values.allSatisfy { $0.response == nil },
                      "no application-level answers: the write response or an ATT error is the answer")
    }

    func testCharacteristicsAndErrorCodes() throws {
        let profile = try profile()
        XCTAssertEqual(profile.characteristic(named: "control")?.uuid.description, "F7BF3564-FB6D-4E53-88A4-5E37E0326063")
        XCTAssertEqual(profile.characteristic(named: "data")?.uuid.description, "984227F3-34FC-4045-A5D0-2C581F81A153")
        XCTAssertEqual(profile.characteristic(named: "data")?.writeType, .withoutResponse)
        XCTAssertEqual(profile.characteristic(named: "data")?.optional, true)
        let table = try XCTUnwrap(profile.codeTables["apploader"])
        XCTAssertEqual(table.entries.keys.sorted(), Array(0x80...0x89))
        XCTAssertEqual(table.entries[0x80]?.name, "crc-error")
        XCTAssertEqual(table.entries[0x81]?.name, "wrong-state")
        XCTAssertEqual(table.entries[0x84]?.name, "not-supported")
        XCTAssertEqual(profile.characteristic(named: "control")?.attErrors, "apploader")
    }
}
