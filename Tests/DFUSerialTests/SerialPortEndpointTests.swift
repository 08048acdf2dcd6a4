@testable import DFUSerial
import DFUGATT
import DFUWire
import XCTest

final class SerialPortEndpointTests: XCTestCase {
    /// A device resets: its USB port goes away (the open wire ends saying so) and comes back as
    /// ttyACM1; the endpoint, which names the device by serial number, finds it there.
    func testTheEndpointFindsADeviceThatReEnumeratedUnderAnotherName() async throws {
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        let before = try PseudoTerminal()
        try tree.addCDCACM("ttyACM0", usbPath: "1-1.2", node: before.subordinatePath)
        try tree.addFTDI("ttyUSB0", usbPath: "1-1.3")
        let endpoint = SerialPortEndpoint(selector: try SerialPortSelector(parsing: "usb-serial=E3B0C442"),
                                          settings: SerialPortSettings(baudRate: .b1000000), catalog: tree.catalog)
        XCTAssertEqual(endpoint.description, "usb-serial=E3B0C442")

        let first = try await endpoint.open()
        XCTAssertEqual(endpoint.lastOpenedPath, "\(tree.dev)/ttyACM0")
        try await first.send([0x01, 0x0A])
        let request = try await receiveBytes(2, from: before)
        XCTAssertEqual(request, [0x01, 0x0A])

        // The reset: the port vanishes, and the open wire learns it.
        try tree.unplug("1-1.2")
        await before.close()
        do {
            _ = try await first.receive(until: first.now + .seconds(2))
            XCTFail("the wire to a vanished port still reads")
        } catch {
            XCTAssertEqual(error.kind, .closed)
            XCTAssertTrue(error.detail.contains("the port went away"), error.description)
        }
        await first.close()
        do {
            _ = try await endpoint.open()
            XCTFail("opened a port that is not there")
        } catch {
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertTrue(error.detail.contains("no USB serial port with serial number E3B0C442"), error.description)
            XCTAssertTrue(error.detail.contains("ttyUSB0"), "says which ports there are: \(error)")
        }

        // Back, under another name.
        let after = try PseudoTerminal()
        try tree.addCDCACM("ttyACM1", usbPath: "1-1.2", node: after.subordinatePath)
        let second = try await endpoint.open()
        XCTAssertEqual(endpoint.lastOpenedPath, "\(tree.dev)/ttyACM1")
        try await second.send([0x02, 0x0D])
        let again = try await receiveBytes(2, from: after)
        XCTAssertEqual(again, [0x02, 0x0D])
        try await after.send([0x03])
        let answer = try await receiveBytes(1, from: second)
        XCTAssertEqual(answer, [0x03])
        await second.close()
        await after.close()
    }

    func testAByPathSelectorIsFollowedAfterAReplug() async throws {
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        let before = try PseudoTerminal()
        try tree.addCDCACM("ttyACM0", usbPath: "1-1.2", node: before.subordinatePath)
        let endpoint = SerialPortEndpoint(selector: .usbPath("1-1.2", interface: "1.0"), catalog: tree.catalog)
        let first = try await endpoint.open()
        await first.close()
        try tree.unplug("1-1.2")
        await before.close()
        let after = try PseudoTerminal()
        try tree.addCDCACM("ttyACM3", usbPath: "1-1.2", node: after.subordinatePath)
        let second = try await endpoint.open()
        XCTAssertEqual(endpoint.lastOpenedPath, "\(tree.dev)/ttyACM3")
        await second.close()
        await after.close()
    }

    func testAnAbsentPathListsThePortsThereAre() async throws {
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        try tree.addFTDI("ttyUSB0", usbPath: "1-1.3")
        let endpoint = SerialPortEndpoint(selector: .path("\(tree.dev)/ttyACM0"), catalog: tree.catalog)
        do {
            _ = try await endpoint.open()
            XCTFail("opened a port that is not there")
        } catch {
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertEqual(error.wire, "\(tree.dev)/ttyACM0")
            XCTAssertTrue(error.detail.hasPrefix("no such port; serial ports here: \(tree.dev)/ttyUSB0 (usb-serial=A50285BI"),
                          error.detail)
        }
    }

    func testTheWireTransportConnectsThroughTheEndpointWhenThePortComesBack() async throws {
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        let endpoint = SerialPortEndpoint(selector: .usbSerialNumber("E3B0C442", interface: nil), catalog: tree.catalog)
        // The port appears 150 ms after the transport starts connecting.
        let device = try PseudoTerminal()
        let node = device.subordinatePath
        let plugging = Task {
            try await Task.sleep(for: .milliseconds(150))
            try tree.addCDCACM("ttyACM0", usbPath: "1-1.2", node: node)
        }
        let binding = WireBinding(medium: .serial, framing: DatagramFraming(), services: [], writes: [:],
                                  responseHandle: 0)
        let transport = WireTransport(endpoint: endpoint, binding: binding, address: DeviceAddress(value: 1),
                                      retryInterval: .milliseconds(20))
        let link = try await transport.connect(to: DeviceAddress(value: 1), timeout: .seconds(3))
        try await plugging.value
        XCTAssertEqual(endpoint.lastOpenedPath, "\(tree.dev)/ttyACM0")
        await link.disconnect()
        await device.close()
    }
}
