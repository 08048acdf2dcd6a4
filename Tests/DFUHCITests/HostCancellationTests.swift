import XCTest
import DFUBytes
import DFUGATT
@testable import DFUHCI

/// Cancelling the task that scans or connects ends the wait at once (Ctrl-C), instead of at
/// the timeout. The time limits here are hang checks (the waits asked for are 60 s).
final class HostCancellationTests: XCTestCase {
    private static let peer = DeviceAddress(string: "F0:01:02:03:04:05")!

    private func makeHost(_ settings: FakeController.Settings = .init()) async throws -> (HCIHost, FakeController) {
        let controller = FakeController(settings)
        var configuration = HCIHostConfiguration()
        configuration.commandTimeout = .milliseconds(300)
        configuration.optionalCommandTimeout = .milliseconds(100)
        configuration.randomAddress = DeviceAddress(string: "C3:11:22:33:44:55")
        let host = HCIHost(pipe: controller, configuration: configuration)
        try await host.start()
        return (host, controller)
    }

    func testCancelledScanForADeviceReturnsNothing() async throws {
        let (host, controller) = try await makeHost()
        let found = try await withTimeout(2, "a cancelled scan") { try await Self.scanCancelled(host) }
        XCTAssertNil(found)
        XCTAssertTrue(controller.commands.contains { $0.opcode == LESetScanEnableCommand.opcode })
        await host.close()
    }

    func testCancelledConnectionAttemptIsCancelledOnTheController() async throws {
        let (host, controller) = try await makeHost(.init(connects: false))
        let error = try await withTimeout(2, "a cancelled connection attempt") { try await Self.connectCancelled(host) }
        XCTAssertEqual(error?.kind, .connectionTimeout(address: Self.peer))
        XCTAssertTrue(controller.commands.contains { $0.opcode == LECreateConnectionCancelCommand.opcode },
                      "the controller is told to stop connecting")
        await host.close()
    }

    /// Scans for 60 s for a device that never advertises, cancelled after 50 ms.
    private static func scanCancelled(_ host: HCIHost) async throws -> HCIAdvertisement? {
        let peer = peer
        let scan = Task { try await host.scan(timeout: .seconds(60)) { $0.address == peer } }
        try await Task.sleep(for: .milliseconds(50))
        scan.cancel()
        return try await scan.value
    }

    /// Connects (60 s) to a device that never answers, cancelled after 50 ms.
    private static func connectCancelled(_ host: HCIHost) async throws -> HCIError? {
        let peer = peer
        let attempt = Task { () async -> HCIError? in
            do throws(HCIError) {
                _ = try await host.connect(to: peer, addressType: .randomDevice, timeout: .seconds(60))
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        attempt.cancel()
        return await attempt.value
    }
}
