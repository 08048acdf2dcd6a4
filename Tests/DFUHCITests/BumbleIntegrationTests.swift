import XCTest
import DFUBytes
import DFUGATT
@testable import DFUHCI

/// Against Bumble's virtual controller, with `Tests/Bumble/vendor_peripheral.py` advertising on
/// the same virtual link. Run by `make test-bumble`, which starts both and sets
/// DFUKIT_BUMBLE_HCI=tcp:127.0.0.1:PORT (the controller left for this host). Skipped, saying
/// so, without it.
final class BumbleIntegrationTests: XCTestCase {
    private func bumbleAddress() throws -> String {
        guard let address = ProcessInfo.processInfo.environment["DFUKIT_BUMBLE_HCI"], !address.isEmpty else {
            throw XCTSkip("DFUKIT_BUMBLE_HCI is not set: run `make test-bumble` to test against Bumble's virtual controller")
        }
        return address
    }

    func testScanConnectExchangeMTUAndDisconnect() async throws {
        let address = try bumbleAddress()
        let trace = ProcessInfo.processInfo.environment["DFUKIT_BUMBLE_TRACE"]
        let started = ContinuousClock.now
        let host = try await HCIHost.open(address, traceFile: trace)
        let info = await host.controller
        print("bumble: controller HCI version \(info?.version.hciVersion ?? 0), company 0x\(String(info?.version.companyIdentifier ?? 0, radix: 16)), "
              + "LE ACL \(info?.aclPacketLength ?? 0) x \(info?.aclPacketCount ?? 0), features 0x\(String(info?.features.rawValue ?? 0, radix: 16))")

        let service = BluetoothUUID(string: "D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
        // The name is in the advertising data, the service UUID in the scan response.
        let found = try await host.scan(timeout: .seconds(5)) {
            $0.name == "DFU-BUMBLE" && $0.advertisement.serviceUUIDs.contains(service)
        }
        let device = try XCTUnwrap(found, "DFU-BUMBLE was not heard within 5 s; is Tests/Bumble/vendor_peripheral.py running?")
        print("bumble: found \(device.advertisement) (\(device.addressType)) after \(ContinuousClock.now - started)")

        let connectStarted = ContinuousClock.now
        let channel = try await host.connect(to: device, timeout: .seconds(5))
        let unsupported = await host.unsupportedOptionalCommands
        print("bumble: connected, handle 0x\(String(channel.handle, radix: 16)), in \(ContinuousClock.now - connectStarted); "
              + "optional commands unsupported: \(unsupported.map(\.description).sorted())")

        // ATT Exchange MTU Request, client Rx MTU 247, built by hand.
        let exchangeStarted = ContinuousClock.now
        try await channel.send([0x02, 0xF7, 0x00])
        let response = try await withTimeout(5, "ATT Exchange MTU Response") { await channel.receive() }
        let pdu = try XCTUnwrap(response)
        print("bumble: MTU response \(pdu.hexString) in \(ContinuousClock.now - exchangeStarted)")
        XCTAssertEqual(pdu.first, 0x03, "ATT Exchange MTU Response")
        XCTAssertEqual(pdu.count, 3)

        try await channel.disconnect()
        let end = channel.disconnection
        XCTAssertNotNil(end)
        print("bumble: disconnected: \(end.map { "\($0)" } ?? "-"); total \(ContinuousClock.now - started)")
        await host.close()
    }
}
