import DFUBytes
import DFUGATT
import DFUWire
import XCTest

/// An endpoint on a virtual clock whose port is absent until `presentFrom`.
final class ScriptedEndpoint: WireEndpoint {
    var now: Duration = .zero
    var presentFrom: Duration = .zero
    var opened = 0
    var description: String { "scripted port" }

    func open() async throws(WireError) -> any ByteWire {
        guard now >= presentFrom else { throw WireError(.unavailable, wire: description, detail: "not plugged in") }
        opened += 1
        let wire = ScriptedWire()
        wire.now = now
        return wire
    }

    func sleep(until deadline: Duration) async { now = max(now, deadline) }
}

final class WireTransportTests: XCTestCase {
    private func transport(_ endpoint: ScriptedEndpoint) -> WireTransport {
        let service = BluetoothUUID(uuid16: 0xFE59)
        let control = GATTCharacteristic(service: service, uuid: BluetoothUUID(uuid16: 0x0001), valueHandle: 3,
                                         properties: [.write, .notify])
        let binding = WireBinding(medium: .serial, framing: DatagramFraming(),
                                  services: [GATTService(uuid: service, characteristics: [control])],
                                  writes: [3: WireWrite()], responseHandle: 3)
        return WireTransport(endpoint: endpoint, binding: binding, address: DeviceAddress(value: 0xC0_0000_0000_01))
    }

    func testConnectingWaitsForAPortThatIsNotThereYet() async throws {
        let endpoint = ScriptedEndpoint()
        endpoint.presentFrom = .milliseconds(450)
        let wires = transport(endpoint)
        let link = try await wires.connect(to: DeviceAddress(value: 0xC0_0000_0000_01), timeout: .seconds(1))
        XCTAssertEqual(link.medium, .serial)
        XCTAssertEqual(endpoint.now, .milliseconds(500), "tried every 100 ms until the port was there")
        XCTAssertEqual(wires.soleDevice, DeviceAddress(value: 0xC0_0000_0000_01))
    }

    func testConnectingGivesUpAtTheTimeoutSayingWhatWasMissing() async {
        let endpoint = ScriptedEndpoint()
        endpoint.presentFrom = .seconds(5)
        do {
            _ = try await transport(endpoint).connect(to: DeviceAddress(value: 0xC0_0000_0000_01), timeout: .seconds(1))
            XCTFail("connected to an absent port")
        } catch {
            XCTAssertEqual(error.kind, .connectionFailed)
            XCTAssertTrue(error.description.contains("not plugged in"), error.description)
        }
    }

    func testADeviceIsBackOnceItsPortOpensAgain() async throws {
        let endpoint = ScriptedEndpoint()
        endpoint.presentFrom = .seconds(2)
        let wires = transport(endpoint)
        let early = try await wires.waitForAdvertisement(from: wires.address, timeout: .seconds(1))
        XCTAssertNil(early, "still away after a second")
        let back = try await wires.waitForAdvertisement(from: wires.address, timeout: .seconds(3))
        XCTAssertEqual(back?.address, wires.address)
        XCTAssertEqual(endpoint.now, .seconds(2))
        _ = try await wires.connect(to: wires.address, timeout: .seconds(1))
        XCTAssertEqual(endpoint.opened, 1, "the wire that showed the device back is the one connected: the port is opened once")
    }

    func testAScanFindsTheOneDeviceOnlyWhileItsPortIsThere() async throws {
        let endpoint = ScriptedEndpoint()
        endpoint.presentFrom = .seconds(1)
        let wires = transport(endpoint)
        let none = try await wires.scan(timeout: .seconds(1))
        XCTAssertEqual(none.count, 0)
        endpoint.now = .seconds(1)
        let found = try await wires.scan(timeout: .seconds(1))
        XCTAssertEqual(found.map(\.serviceUUIDs), [[BluetoothUUID(uuid16: 0xFE59)]])
    }

    func testAnotherAddressIsRefused() async {
        do {
            _ = try await transport(ScriptedEndpoint()).connect(to: DeviceAddress(value: 7), timeout: .seconds(1))
            XCTFail("connected to another address")
        } catch {
            XCTAssertEqual(error.kind, .connectionFailed)
        }
    }
}
