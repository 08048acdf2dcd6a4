@testable import DFUSerial
import DFUWire
import Glibc
import XCTest

final class SerialPortWireTests: XCTestCase {
    func testTheOpenedPortIsRaw8N1AtTheRateWithFlowControlAsAsked() async throws {
        let device = try PseudoTerminal()
        let settings = SerialPortSettings(baudRate: .b921600, flowControl: .hardware)
        let client = try SerialPortWire(path: device.subordinatePath, settings: settings)
        // Read back what the terminal holds through a descriptor of our own.
        let descriptor = open(device.subordinatePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { Glibc.close(descriptor) }
        var held = termios()
        XCTAssertEqual(tcgetattr(descriptor, &held), 0)
        XCTAssertEqual(cfgetospeed(&held), speed_t(B921600))
        XCTAssertEqual(cfgetispeed(&held), speed_t(B921600))
        XCTAssertEqual(held.c_cflag & tcflag_t(CSIZE), tcflag_t(CS8))
        XCTAssertEqual(held.c_cflag & (tcflag_t(PARENB) | tcflag_t(CSTOPB)), 0, "no parity, one stop bit")
        XCTAssertNotEqual(held.c_cflag & tcflag_t(CRTSCTS), 0)
        XCTAssertNotEqual(held.c_cflag & tcflag_t(CLOCAL), 0)
        XCTAssertNotEqual(held.c_cflag & tcflag_t(CREAD), 0)
        XCTAssertEqual(held.c_lflag & (tcflag_t(ICANON) | tcflag_t(ECHO) | tcflag_t(ISIG) | tcflag_t(IEXTEN)), 0,
                       "no line editing, echo or signals")
        let translations = tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(ICRNL) | tcflag_t(INLCR) | tcflag_t(IGNCR) | tcflag_t(ISTRIP)
        XCTAssertEqual(held.c_iflag & translations, 0, "no XON/XOFF, no CR/LF mapping")
        XCTAssertEqual(held.c_oflag & tcflag_t(OPOST), 0, "no output processing")
        await client.close()
        await device.close()
    }

    func testWithoutFlowControlCRTSCTSIsOff() async throws {
        let device = try PseudoTerminal()
        let client = try SerialPortWire(path: device.subordinatePath, settings: SerialPortSettings(flowControl: .none))
        var held = try XCTUnwrap(SystemWireSyscalls().terminalAttributes(heldDescriptor(device)).get())
        XCTAssertEqual(held.c_cflag & tcflag_t(CRTSCTS), 0)
        XCTAssertEqual(cfgetospeed(&held), speed_t(B115200))
        await client.close()
        await device.close()
    }

    func testReceiveReturnsNilWhenItsDeadlinePasses() async throws {
        let device = try PseudoTerminal()
        let client = try SerialPortWire(path: device.clientPath)
        let started = ContinuousClock.now
        let deadline = client.now + .milliseconds(150)
        let nothing = try await client.receive(until: deadline)
        let waited = ContinuousClock.now - started
        XCTAssertNil(nothing)
        XCTAssertGreaterThanOrEqual(client.now, deadline)
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(140))
        XCTAssertLessThan(waited, .milliseconds(650), "a deadline must not be overslept")
        // A deadline already past answers at once.
        let past = ContinuousClock.now
        let again = try await client.receive(until: client.now - .seconds(1))
        XCTAssertNil(again)
        XCTAssertLessThan(ContinuousClock.now - past, .milliseconds(100))
        await client.close()
        await device.close()
    }

    func testAPortWhoseDeviceWentAwayEndsTheWireSayingSo() async throws {
        let syscalls = InjectingSyscalls()
        let device = try PseudoTerminal()
        let client = try SerialPortWire(path: device.subordinatePath, settings: SerialPortSettings(),
                                        clock: WireClock(), syscalls: syscalls)
        // USB CDC-ACM after its device reset: the next read fails with ENXIO.
        syscalls.failReads(of: device.subordinatePath, with: .noSuchDeviceOrAddress)
        try await device.send([0x01])
        do {
            _ = try await client.receive(until: client.now + .seconds(2))
            XCTFail("a port that went away still reads")
        } catch {
            XCTAssertEqual(error.kind, .closed)
            XCTAssertEqual(error.wire, device.subordinatePath)
            XCTAssertTrue(error.detail.contains("the port went away"), error.description)
            XCTAssertTrue(error.detail.contains("ENXIO"), error.description)
        }
        // And again on every later call.
        do {
            _ = try await client.receive(until: client.now + .seconds(1))
            XCTFail("a port that went away still reads")
        } catch {
            XCTAssertTrue(error.detail.contains("the port went away"), error.description)
        }
        await client.close()
        await device.close()
    }

    func testAWriteTheDeviceDoesNotReadFailsAfterTheTimeout() async throws {
        // A terminal whose controller nobody reads: what the client writes fills its buffers.
        let syscalls = SystemWireSyscalls()
        let controller = try syscalls.openPseudoTerminalController(flags: O_RDWR | O_NOCTTY | O_CLOEXEC).get()
        defer { syscalls.close(controller) }
        try syscalls.grantPseudoTerminal(controller).get()
        try syscalls.unlockPseudoTerminal(controller).get()
        let path = try syscalls.pseudoTerminalSubordinatePath(controller).get()
        let client = try SerialPortWire(path: path, settings: SerialPortSettings(writeTimeout: .milliseconds(200)))
        let started = ContinuousClock.now
        let megabyte = [UInt8](repeating: 0x55, count: 1 << 20)
        do {
            try await client.send(megabyte)
            XCTFail("1 MiB went into a terminal nobody reads")
        } catch {
            XCTAssertEqual(error.kind, .io)
            XCTAssertTrue(error.detail.contains("the device does not read"), error.description)
            XCTAssertTrue(error.detail.contains("of 1048576 bytes written in 0.2 s"), error.description)
        }
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(190))
        await client.close()
    }

    func testCloseClosesThePortOnceAndLaterCallsFail() async throws {
        let syscalls = InjectingSyscalls()
        let device = try PseudoTerminal()
        var client: SerialPortWire? = try SerialPortWire(path: device.subordinatePath, settings: SerialPortSettings(),
                                                         clock: WireClock(), syscalls: syscalls)
        let descriptor = try XCTUnwrap(syscalls.descriptors(openedFrom: device.subordinatePath).first)
        await client?.close()
        await client?.close()
        XCTAssertEqual(syscalls.closeCount(of: descriptor), 1)
        do {
            try await client?.send([1])
            XCTFail("sent on a closed wire")
        } catch {
            XCTAssertEqual(error.kind, .closed)
        }
        do {
            _ = try await client?.receive(until: .seconds(1))
            XCTFail("received on a closed wire")
        } catch {
            XCTAssertEqual(error.kind, .closed)
        }
        client = nil
        XCTAssertEqual(syscalls.closeCount(of: descriptor), 1)
        await device.close()
    }

    func testAWireDroppedWithoutCloseStillClosesItsPort() async throws {
        let syscalls = InjectingSyscalls()
        let device = try PseudoTerminal()
        var client: SerialPortWire? = try SerialPortWire(path: device.subordinatePath, settings: SerialPortSettings(),
                                                         clock: WireClock(), syscalls: syscalls)
        let descriptor = try XCTUnwrap(syscalls.descriptors(openedFrom: device.subordinatePath).first)
        XCTAssertNotNil(client)
        client = nil
        let deadline = ContinuousClock.now + .seconds(2)
        while syscalls.closeCount(of: descriptor) == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(syscalls.closeCount(of: descriptor), 1)
        await device.close()
    }

    func testOpenFailuresSayWhatToDo() {
        let syscalls = InjectingSyscalls()
        syscalls.failOpen(of: "/dev/ttyACM7", with: .permissionDenied)
        XCTAssertThrowsError(try SerialPortWire(path: "/dev/ttyACM7", settings: SerialPortSettings(),
                                                clock: WireClock(), syscalls: syscalls)) { error in
            let error = error as! WireError
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertEqual(error.wire, "/dev/ttyACM7")
            XCTAssertTrue(error.detail.contains("dialout"), error.description)
        }
        XCTAssertThrowsError(try SerialPortWire(path: "/nonexistent/ttyACM9")) { error in
            let error = error as! WireError
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertTrue(error.detail.contains("no such port"), error.description)
        }
        XCTAssertThrowsError(try SerialPortWire(path: "/dev/null")) { error in
            let error = error as! WireError
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertTrue(error.detail.contains("not a serial port"), error.description)
        }
    }

    func testLineRateAndKind() {
        XCTAssertEqual(SerialLineKind(major: 136), .pseudoTerminal)
        XCTAssertEqual(SerialLineKind(major: 143), .pseudoTerminal)
        XCTAssertEqual(SerialLineKind(major: 166), .usbCDCACM)
        XCTAssertEqual(SerialLineKind(major: 188), .uart, "ttyUSB")
        XCTAssertEqual(SerialLineKind(major: 4), .uart, "ttyS")
    }

    /// The subordinate descriptor the device end holds, found through /proc.
    private func heldDescriptor(_ device: PseudoTerminal) throws -> Int32 {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init)
        let held = descriptors.first { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) == device.subordinatePath
        }
        return try XCTUnwrap(held)
    }
}
