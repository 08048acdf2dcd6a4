#if canImport(Glibc)
import Foundation
import Glibc
#endif
import XCTest
import DFUBytes
@testable import DFUHCI

final class H4PipeAddressTests: XCTestCase {
    func testParsesEveryKind() throws {
        XCTAssertEqual(try H4PipeAddress(parsing: "hci:tcp:127.0.0.1:9001"), .tcp(host: "127.0.0.1", port: 9001))
        XCTAssertEqual(try H4PipeAddress(parsing: "tcp:[::1]:9001"), .tcp(host: "::1", port: 9001))
        XCTAssertEqual(try H4PipeAddress(parsing: "hci:unix:/run/bt.sock"), .unix(path: "/run/bt.sock"))
        XCTAssertEqual(try H4PipeAddress(parsing: "hci:serial:/dev/ttyACM0"),
                       .serial(path: "/dev/ttyACM0", baudRate: 1_000_000))
        XCTAssertEqual(try H4PipeAddress(parsing: "hci:serial:/dev/ttyUSB0,115200"),
                       .serial(path: "/dev/ttyUSB0", baudRate: 115_200))
        XCTAssertEqual(try H4PipeAddress(parsing: "hci:user:0"), .userChannel(index: 0))
        XCTAssertEqual(H4PipeAddress.tcp(host: "::1", port: 1).description, "hci:tcp:[::1]:1")
    }

    func testRefusalsSayWhatIsWrongAndWhatIsAccepted() {
        for bad in ["hci:tcp:localhost", "hci:tcp:host:0", "hci:serial:/dev/x,12", "hci:user:x", "hci:ble:1", "tcp"] {
            XCTAssertThrowsError(try H4PipeAddress(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".contains("hci:tcp:HOST:PORT"), "\(error)")
            }
        }
    }

    func testUserChannelWithoutKernelBluetoothIsUnavailable() {
        let noBluetooth: HCIUserChannel.SocketCall = { _, _, _ in (-1, EAFNOSUPPORT) }
        XCTAssertThrowsError(try HCIUserChannel.open(index: 0, socketCall: noBluetooth)) { error in
            let error = error as? HCIError
            XCTAssertEqual(error?.kind, .transportUnavailable)
            XCTAssertTrue(error?.description.hasPrefix(
                "transport unavailable: this kernel has no Bluetooth sockets (EAFNOSUPPORT)") ?? false, "\(String(describing: error))")
        }
        // The real call on this machine: unavailable either way (no AF_BLUETOOTH, no hci0, or no permission).
        XCTAssertThrowsError(try H4PipeAddress(parsing: "hci:user:0").open()) { error in
            XCTAssertEqual((error as? HCIError)?.kind, .transportUnavailable)
        }
    }

    func testConnectionRefusedSaysWhere() {
        XCTAssertThrowsError(try H4PipeAddress(parsing: "hci:tcp:127.0.0.1:1").open()) { error in
            XCTAssertTrue("\(error)".contains("hci:tcp:127.0.0.1:1: cannot connect"), "\(error)")
        }
        XCTAssertThrowsError(try H4PipeAddress(parsing: "hci:serial:/nonexistent/tty").open()) { error in
            XCTAssertTrue("\(error)".contains("ENOENT"), "\(error)")
        }
    }
}

final class H4StreamPipeTests: XCTestCase {
    private func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw TestTimeout(what: "socketpair") }
        return (ends[0], ends[1])
    }

    private func write(_ descriptor: Int32, _ data: [UInt8]) {
        _ = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }

    func testGarbageOnTheStreamIsSkipped() async throws {
        let (ours, controller) = try socketPair()
        let transport = try H4StreamPipe(descriptor: ours, name: "socketpair")
        defer { Glibc.close(controller) }
        // Garbage, an event split across writes, more garbage, an ACL packet.
        write(controller, bytes("ff 00 13 04 0e 04"))
        try await Task.sleep(for: .milliseconds(10))
        write(controller, bytes("01 03 0c 00 00 00 02 40 20 01 00 aa"))
        var iterator = transport.incoming.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        XCTAssertEqual(first, HCIPacket(type: .event, body: bytes("0e 04 01 03 0c 00")))
        XCTAssertEqual(second, HCIPacket(type: .acl, body: bytes("40 20 01 00 aa")))
        XCTAssertEqual(transport.discardedByteCount, 5)

        // Host to controller: H4 framing.
        try await transport.send(ResetCommand().packet)
        var received = [UInt8](repeating: 0, count: 16)
        let count = received.withUnsafeMutableBytes { Glibc.read(controller, $0.baseAddress, $0.count) }
        XCTAssertEqual(Array(received[0..<count]), bytes("01 03 0c 00"))

        // The controller going away ends the stream with a reason.
        Glibc.close(controller)
        let end = await iterator.next()
        XCTAssertNil(end)
        XCTAssertEqual(transport.failure?.kind, .transportClosed)
        let error = await hciError { () async throws(HCIError) in try await transport.send(ResetCommand().packet) }
        XCTAssertEqual(error?.kind, .transportClosed)
    }

    func testCloseEndsTheStream() async throws {
        let (ours, controller) = try socketPair()
        defer { Glibc.close(controller) }
        let transport = try H4StreamPipe(descriptor: ours, name: "socketpair")
        transport.close()
        let end = try await withTimeout(2, "stream end") {
            var iterator = transport.incoming.makeAsyncIterator()
            return await iterator.next() == nil
        }
        XCTAssertTrue(end)
        XCTAssertNil(transport.failure, "closing is not a failure")
    }

    func testSerialPortOnAPseudoTerminal() async throws {
        // posix_openpt/ptsname are not imported by Glibc: /dev/ptmx with TIOCSPTLCK and TIOCGPTN.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw XCTSkip("no pseudo-terminals here: the serial transport is not exercised")
        }
        defer { Glibc.close(master) }
        let path = "/dev/pts/\(number)"
        let transport = try H4PipeAddress(parsing: "hci:serial:\(path),115200").open()
        defer { transport.close() }
        write(master, bytes("00 04 0e 04 01 03 0c 00"))
        let packet = try await withTimeout(2, "serial packet") {
            var iterator = transport.incoming.makeAsyncIterator()
            return await iterator.next()
        }
        XCTAssertEqual(packet, HCIPacket(type: .event, body: bytes("0e 04 01 03 0c 00")))
        try await transport.send(ResetCommand().packet)
        var received = [UInt8](repeating: 0, count: 16)
        let count = received.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        XCTAssertEqual(Array(received[0..<max(count, 0)]), bytes("01 03 0c 00"), "raw mode: no byte translated")
    }
}

final class BTSnoopTests: XCTestCase {
    func testTraceReadsBackWithAnIndependentParser() throws {
        let path = NSTemporaryDirectory() + "dfuhci-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).btsnoop"
        defer { unlink(path) }
        let writer = try BTSnoopWriter(path: path, clock: { 1_700_000_000_000_000 })
        writer.record(ResetCommand().packet, direction: .sent)
        writer.record(HCIEvent.commandComplete(CommandCompleteEvent(opcode: ResetCommand.opcode, status: .success)).packet,
                      direction: .received)
        writer.record(ACLPacket(handle: 0x40, boundary: .firstNonFlushable, data: bytes("03 00 04 00 02 f7 00")).packet,
                      direction: .sent)
        writer.close()

        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(file[0..<16]), Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xEA])
        // Record 1: lengths 4/4, flags 2 (sent, command), drops 0, timestamp, data.
        XCTAssertEqual(Array(file[16..<40]).hexString, "00000004" + "00000004" + "00000002" + "00000000"
                       + String(UInt64(1_700_000_000_000_000 + BTSnoopFormat.unixEpochOffset), radix: 16).leftPadded(to: 16))

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Bumble/btsnoop_dump.py").standardized.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            throw XCTSkip("python3 is not installed: the btsnoop file was not checked by an independent parser")
        }
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertEqual(text, """
            0 sent cmd/evt 1700000000000000 01030c00
            1 received cmd/evt 1700000000000000 040e0401030c00
            2 sent data 1700000000000000 024000070003000400 02f700

            """.replacingOccurrences(of: "00 02f7", with: "0002f7"))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
