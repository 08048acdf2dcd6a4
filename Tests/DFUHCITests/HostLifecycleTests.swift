import DFUGATT
@testable import DFUHCI
import XCTest

/// `HCIHost` driving `HCIConnectionLifecycle` against the in-memory controller: the phases a
/// caller sees, and pairing refused while one is under way.
final class HostLifecycleTests: XCTestCase {
    func testPhasesThroughPairingAndTheEnd() async throws {
        let controller = FakeController()
        var configuration = HCIHostConfiguration()
        configuration.commandTimeout = .milliseconds(300)
        configuration.optionalCommandTimeout = .milliseconds(100)
        configuration.randomAddress = DeviceAddress(string: "C3:11:22:33:44:55")
        let host = HCIHost(pipe: controller, configuration: configuration)
        try await host.start()
        let channel = try await host.connect(to: DeviceAddress(string: "F0:01:02:03:04:05")!, addressType: .randomDevice,
                                             timeout: .seconds(1))
        let handle = channel.handle
        let connected = await host.connectionPhase(handle)
        XCTAssertEqual(connected, .connected)

        // The device never answers the Pairing Request: the pairing runs until its timeout.
        let pairing = Task { await hciError { () async throws(HCIError) in try await host.pair(handle, timeout: .seconds(1)) } }
        _ = await controller.waitForACL(count: 1)
        let encrypting = await host.connectionPhase(handle)
        XCTAssertEqual(encrypting, .encrypting)
        let second = await hciError { () async throws(HCIError) in try await host.pair(handle, timeout: .seconds(1)) }
        XCTAssertEqual(second?.kind, .invalidState)
        XCTAssertEqual(second?.detail, "connection 0x0040 is encrypting, not waiting to be encrypted")
        let first = await pairing.value
        XCTAssertEqual(first?.kind, .pairingFailed(handle: handle))
        let after = await host.connectionPhase(handle)
        XCTAssertEqual(after, .connected, "a failed pairing leaves the link unencrypted, ready to pair again")

        controller.inject(.disconnectionComplete(DisconnectionCompleteEvent(handle: handle, reason: .connectionTimeout)))
        let end = await channel.waitUntilDisconnected()
        XCTAssertEqual(end.kind, .disconnected(handle: handle, reason: .connectionTimeout))
        let gone = await host.connectionPhase(handle)
        XCTAssertNil(gone)
        await host.close()
    }
}
