import DFUGATT
import DFUSimulator
import XCTest

/// `sim:NAME?fleet=N`: device faults per device, and devices found by the address they were
/// made with after they moved.
final class FleetTests: XCTestCase {
    func testEachDeviceTakesTheDeviceFaultsOnce() async throws {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=2&fault=disconnect-on:status"))
        for advertisement in fleet.advertisements {
            for attempt in 1...2 {
                let world = try XCTUnwrap(fleet.world(for: advertisement.address, attempt: attempt, concurrency: 1))
                let link = try world.connectLink(to: advertisement.address, timeout: .seconds(1))
                let services = try await link.discoverServices()
                let controlPoint = try XCTUnwrap(services.first?.characteristics.first)
                try await link.write([0x01, 0x00, 0x05], to: controlPoint, type: .withoutResponse)  // status
                do {
                    let answer = try await link.nextNotification(until: link.now + .seconds(1))
                    XCTAssertEqual(attempt, 2, "\(advertisement.address): the first status drops the link")
                    XCTAssertNotNil(answer)
                } catch {
                    XCTAssertEqual(attempt, 1, "\(advertisement.address): the fault fires once per device")
                    XCTAssertEqual(error.detail, "simulated fault: disconnect on status #1, before the device processed it")
                }
            }
        }
    }

    func testADeviceThatMovedIsStillFoundByItsAddress() throws {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "nordic-secure-dfu?fleet=1&buttonless=1"))
        let address = fleet.advertisements[0].address
        let device = try XCTUnwrap(fleet.device(at: address) as? NordicSecureDFUDevice)
        device.connectionStarted(mtu: 23, at: .zero)
        _ = device.receiveWrite(handle: 10, value: [0x02, 0x00], at: .zero)  // indications on
        _ = device.receiveWrite(handle: 9, value: [0x01], at: .zero)  // enter the bootloader
        device.connectionEnded(at: .zero)
        XCTAssertNotEqual(device.advertisement.address, address, "the bootloader is on address + 1")
        XCTAssertTrue(fleet.device(at: address) === device)
        XCTAssertNotNil(fleet.world(for: address, attempt: 2, concurrency: 1))
        XCTAssertTrue(fleet.device(at: device.bootloaderAddress) === device)
    }
}
