import DFUBytes
import DFUGATT
import DFUWire
import XCTest
@testable import DFUSimulator

/// The virtual-clock line: line time, processing time, and what a reset does to the port.
final class SimulatedWireLineTests: XCTestCase {
    func testBytesTakeTenBitsEachAtTheBaudRate() async throws {
        let device = EchoWireDevice()
        let endpoint = SimulatedWireEndpoint(device: device, link: .serial(baud: 115_200))
        let wire = try await endpoint.open()
        XCTAssertEqual(wire.lineRate, 11_520)
        let message = [UInt8](repeating: 0x41, count: 1152)
        try await wire.send(message)
        let echoed = try await wire.read(count: message.count, until: .seconds(5))
        XCTAssertEqual(echoed, message)
        // 1152 bytes to the device (0.1 s), then the same 1152 bytes back (0.1 s).
        XCTAssertEqual(seconds(device.heard.last!.at), 0.1, accuracy: 1e-9)
        XCTAssertEqual(seconds(wire.now), 0.2, accuracy: 1e-9)
    }

    func testProcessingTimeComesBeforeTheAnswerLeaves() async throws {
        let device = EchoWireDevice()
        device.processing = .milliseconds(30)
        let endpoint = SimulatedWireEndpoint(device: device, link: .serial(baud: 9600))
        let wire = try await endpoint.open()
        try await wire.send([1, 2, 3, 4])
        _ = try await wire.read(count: 4, until: .seconds(5))
        // 4 bytes at 960 bytes/s each way, and 30 ms in between.
        XCTAssertEqual(seconds(wire.now), 8.0 / 960 + 0.030, accuracy: 1e-9)
    }

    func testAPseudoTerminalHasNoLineTime() async throws {
        let device = EchoWireDevice()
        let endpoint = SimulatedWireEndpoint(device: device, link: .pseudoTerminal())
        let wire = try await endpoint.open()
        try await wire.send(Array(repeating: 7, count: 10_000))
        _ = try await wire.read(count: 10_000, until: .seconds(1))
        XCTAssertEqual(wire.now, .zero)
        XCTAssertNil(wire.lineRate)
    }

    func testASendReturnsOnceTheHostDriverTookTheBytes() async throws {
        let endpoint = SimulatedWireEndpoint(device: EchoWireDevice(), link: .serial(baud: 115_200))
        let wire = try await endpoint.open()
        try await wire.send(Array(repeating: 0, count: 4096))
        XCTAssertEqual(wire.now, .zero, "4 KiB fit the driver's buffer")
        try await wire.send(Array(repeating: 0, count: 1152))
        XCTAssertEqual(seconds(wire.now), 0.1, accuracy: 1e-9, "the second write waits until 1152 bytes went out")
    }

    func testUDPDatagramsTakeTheLatencyEachWay() async throws {
        let device = EchoWireDevice(kind: .datagram)
        let endpoint = SimulatedWireEndpoint(device: device, link: .udp(latency: .milliseconds(2)))
        let wire = try await endpoint.open()
        XCTAssertEqual(wire.kind, .datagram)
        try await wire.send([1, 2, 3])
        try await wire.send([4, 5])
        let first = try await wire.receive(until: .seconds(1))
        let second = try await wire.receive(until: .seconds(1))
        XCTAssertEqual(first, [1, 2, 3])
        XCTAssertEqual(second, [4, 5])
        XCTAssertEqual(wire.now, .milliseconds(4))
    }

    func testAResetKeepsAUARTOpenAndLosesWhatIsSentWhileTheDeviceReboots() async throws {
        let device = EchoWireDevice()
        let endpoint = SimulatedWireEndpoint(device: device, link: .serial(baud: 115_200))
        let wire = try await endpoint.open()
        try await wire.send(Array("R".utf8))
        _ = try await wire.read(count: 1, until: .seconds(1))
        await wire.sleep(until: .milliseconds(300))  // the reset came at 250 ms
        XCTAssertFalse(device.isRunning)
        try await wire.send(Array("lost".utf8))
        let during = try await wire.receive(until: .milliseconds(900))
        XCTAssertNil(during, "a rebooting device hears nothing and says nothing")
        let banner = try await wire.read(count: 7, until: .seconds(2))
        XCTAssertEqual(String(decoding: banner, as: UTF8.self), "booted\n", "the wire stayed open across the reset")
        XCTAssertEqual(endpoint.statistics.bytesLost, 4)
        XCTAssertEqual(endpoint.statistics.resets, 1)
    }

    func testAResetTakesAUSBPortAway() async throws {
        let device = EchoWireDevice()
        let endpoint = SimulatedWireEndpoint(device: device, link: .serial(baud: 115_200, usb: true))
        let wire = try await endpoint.open()
        try await wire.send(Array("R".utf8))
        _ = try await wire.read(count: 1, until: .seconds(1))
        do {
            _ = try await wire.receive(until: .seconds(1))
            XCTFail("the port went away with the reset")
        } catch {
            XCTAssertEqual(error.kind, .closed)
        }
        XCTAssertEqual(wire.now, .milliseconds(250) + .microseconds(1), "closed when the device reset, 250 ms after it heard the byte")
        do {
            _ = try await endpoint.open()
            XCTFail("no port while the device reboots")
        } catch {
            XCTAssertEqual(error.kind, .unavailable)
        }
        await endpoint.sleep(until: .seconds(2))
        let again = try await endpoint.open()
        try await again.send([0x41])
        let echoed = try await again.read(count: 1, until: .seconds(3))
        XCTAssertEqual(echoed, [0x41])
    }

    func testATransportRetriesUntilTheUSBPortIsBack() async throws {
        let device = EchoWireDevice()
        let endpoint = SimulatedWireEndpoint(device: device, link: .serial(baud: 115_200, usb: true))
        device.powerCycle(at: .zero)
        let transport = WireTransport(endpoint: endpoint, binding: EchoBinding.binding,
                                      address: DeviceAddress(string: "C0:FF:EE:00:00:01")!)
        _ = try await transport.connect(to: transport.address, timeout: Duration.seconds(5))
        XCTAssertEqual(endpoint.now, .seconds(1), "connected once the port came back, 1 s later")
    }
}
