import DFUKit
import Foundation
import XCTest

/// A line of devices on wires: two simulated Zephyr SMP devices served on UDP sockets of this
/// machine, flashed as one batch (`udp:A,B`), each by its own address, each recorded once.
final class WireBatchTests: XCTestCase {
    private static func freePorts(_ count: Int) -> [UInt16] {
        // Ports in a range this suite alone uses, shifted by the process id so parallel runs differ.
        let base = UInt16(47_000 + Int(getpid()) % 1_000 * 2)
        return (0..<count).map { base + UInt16($0) }
    }

    func testABatchOverUDPFlashesEachDeviceOnItsOwnAddress() async throws {
        let ports = Self.freePorts(2)
        let services = try ports.map { try SimulatedWireService(target: "mcumgr-smp?link=udp", pty: nil, udp: "\($0)") }
        let serving = services.map { service in Task { try? await service.run() } }

        let image = try FirmwarePackage.open(path: Fixtures.repositoryRoot
            .appendingPathComponent("firmware-samples/mcuboot/app-ecdsa-p256.bin").path)
        let ledger = MemoryBatchLedger()
        var request = BatchRequest(profile: try Fixtures.profile("mcumgr-smp"), package: image,
                                   device: "udp:" + ports.map { "127.0.0.1:\($0)" }.joined(separator: ","))
        request.line.concurrency = 2
        request.ledger = ledger
        let (events, error) = await collect(DFUKit.batch(request))
        XCTAssertNil(error)
        guard case let .finished(summary)? = events.last else { return XCTFail("no summary: \(events)") }
        XCTAssertEqual(summary.devices, 2)
        XCTAssertEqual(summary.succeeded, 2)
        let devices = Set(ledger.records.filter { $0.result == .succeeded }.map(\.device))
        XCTAssertEqual(devices.count, 2, "one record for each address")
        for task in serving {
            task.cancel()
            await task.value
        }
        for service in services {
            XCTAssertEqual(service.stage(of: image)?.stage, .installed, service.description)
        }
    }
}
