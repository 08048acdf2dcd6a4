import DFUBytes
import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import XCTest

/// A device that refuses a write with an ATT error: the update fails naming the code from the
/// characteristic's `att-errors` table, and says the device did not take the command.
final class ATTErrorNamingTests: XCTestCase {
    /// One characteristic (handle 3) that answers every write request with ATT error `code`.
    private final class RefusingDevice: SimulatedPeripheral {
        static let service = BluetoothUUID(uuid16: 0xFEED)
        let code: UInt8
        init(code: UInt8) { self.code = code }
        var advertisement: Advertisement {
            Advertisement(address: DeviceAddress(string: "C0:FF:EE:00:00:07")!, name: "refuser", serviceUUIDs: [], rssi: -40)
        }
        var services: [GATTService] {
            [GATTService(uuid: Self.service, characteristics: [
                GATTCharacteristic(service: Self.service, uuid: BluetoothUUID(uuid16: 0xF001), valueHandle: 3,
                                   properties: [.write]),
            ])]
        }
        func connectionStarted(mtu: Int, at time: Duration) {}
        func connectionEnded(at time: Duration) {}
        func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
            [PeripheralOutput(pdu: .errorResponse(code: code, handle: handle), readyAt: time)]
        }
        func readValue(handle: UInt16) -> [UInt8]? { nil }
    }

    private func flash(code: UInt8, attErrors: String) async throws -> FlashReport {
        let profile = try ProfileLoader.load(text: """
            profile: refusals
            characteristics:
              control: { service: FEED, uuid: F001, properties: [write]\(attErrors) }
            codes:
              refusals:
                0x80: { name: crc-error, message: "CRC check failed" }
            commands:
              end:
                characteristic: control
                request: [{ type: u8, value: 0x03 }]
            procedure:
              - phase: finish
                achieves: installed
                steps:
                  - send: end
            """, path: "refusals.yaml")
        let world = SimulatedWorld(name: "sim:refuser", peripherals: [RefusingDevice(code: code)])
        // A profile without match rules needs the address.
        return await FlashSession(profile: profile, images: [EngineTestSupport.image(size: 10)], transport: world,
                                  address: DeviceAddress(string: "C0:FF:EE:00:00:07")).run()
    }

    func testAKnownCodeIsNamedWithItsMessage() async throws {
        let report = try await flash(code: 0x80, attErrors: ", att-errors: refusals")
        XCTAssertEqual(report.status, .failed)
        let message = report.error?.message ?? ""
        XCTAssertTrue(message.contains("ATT error 0x80 on handle 0x3: crc-error: CRC check failed (the device refused a write to 'control')"),
                      message)
        XCTAssertEqual(report.deviceHolds, [.unchanged], "a refused write did not take effect")
    }

    func testUnknownCodesAndCharacteristicsWithoutATableStayNumbers() async throws {
        let unknown = try await flash(code: 0x81, attErrors: ", att-errors: refusals")
        XCTAssertTrue(unknown.error?.message.contains("ATT error 0x81 on handle 0x3: the device refused the request") ?? false,
                      String(describing: unknown.error))
        let untabled = try await flash(code: 0x80, attErrors: "")
        XCTAssertFalse(untabled.error?.message.contains("crc-error") ?? true, String(describing: untabled.error))
    }
}
