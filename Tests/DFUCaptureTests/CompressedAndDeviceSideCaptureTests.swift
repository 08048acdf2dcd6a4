@testable import DFUCapture
import DFUGATT
import Foundation
import XCTest

/// Captures stored gzip-compressed (Android's bug reports, `--record FILE.gz`), and a capture
/// taken at the device's own HCI (Bumble's snooper on the peripheral while DFUKit flashed it):
/// the device is the host's own address and a link the host dropped was dropped by the device.
final class CompressedAndDeviceSideCaptureTests: XCTestCase {
    private static let recordings = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DFUKitTests/Fixtures/Recordings").path

    func testBumblesDeviceSideBtsnoopNamesTheDeviceAndItsReboot() throws {
        let session = try CaptureReader.read(path: Self.recordings + "/vendor-ctrlpt.bumble.btsnoop.gz")
        XCTAssertEqual(session.format, .btsnoop(datalink: 1002))
        XCTAssertEqual(session.connections.count, 2, "the update, then the check after the device's reboot")
        let device = DeviceAddress(string: "F0:DF:00:00:01:01")
        XCTAssertEqual(session.connections.map(\.peer), [device, device], "the peripheral's own address, from LE Set Random Address")
        // vendor_ctrlpt_device.py "reboots" by disconnecting with 0x08 itself: the device ended it.
        XCTAssertEqual(session.connections[0].ending?.byDevice, true)
        XCTAssertEqual(session.connections[0].ending?.reason, 0x08)
        XCTAssertTrue(session.notes.contains { $0.contains("taken at the device's own HCI") }, "\(session.notes)")
        let writes = session.connections[0].operations.filter { if case .write = $0.kind { true } else { false } }
        XCTAssertGreaterThan(writes.count, 5)
    }

    func testAGzipFileIsReadAsWhatItHolds() throws {
        let plain = try fixtureBytes("bumble-session.btsnoop")
        let compressed = try gzip(plain)
        XCTAssertEqual(Array(compressed.prefix(2)), [0x1F, 0x8B])
        XCTAssertEqual(Gzip.inflate(compressed), plain)
        let session = try CaptureReader.read(bytes: compressed, source: "bumble-session.btsnoop.gz")
        let reference = try CaptureReader.read(bytes: plain, source: "bumble-session.btsnoop")
        XCTAssertEqual(session.connections.map(\.operations), reference.connections.map(\.operations))
    }

    func testACutGzipFileIsRefusedWithWhatToDo() throws {
        let compressed = try gzip(try fixtureBytes("bumble-session.btsnoop"))
        XCTAssertNil(Gzip.inflate(Array(compressed.prefix(compressed.count / 2))))
        XCTAssertThrowsError(try CaptureReader.read(bytes: Array(compressed.prefix(compressed.count / 2)), source: "cut.gz")) { error in
            XCTAssertEqual("\(error)", "cut.gz at byte 0: the gzip file is damaged or cut short; check it with `gzip -t cut.gz`")
        }
    }

    func testARecordingNamedGzIsWrittenCompressedAndReadBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString).dfurec.gz").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let header = RecordingHeader(version: 1, dfukitVersion: "test", startedAt: "2026-12-02T17:00:00.000Z",
                                     profile: "vendor-ctrlpt", device: "sim:vendor-ctrlpt", transport: "sim:vendor-ctrlpt",
                                     medium: .ble, package: nil, images: [])
        let writer = try RecordingWriter(path: path, header: header)
        let address = try XCTUnwrap(DeviceAddress(string: "C0:FF:EE:00:00:01"))
        writer.append(RecordingEvent(time: .zero, kind: .connected(address, mtu: 247, medium: .serial, buffer: 512)))
        writer.append(RecordingEvent(time: .milliseconds(5), kind: .write(handle: 3, characteristic: "control", withResponse: true,
                                                                        value: [0x01, 0x00, 0x06])))
        XCTAssertNil(writer.close())
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(bytes.prefix(2)), [0x1F, 0x8B])
        let recording = try RecordingReader.read(path: path)
        XCTAssertEqual(recording.session.connections.first?.deviceBuffer, 512)
        XCTAssertEqual(recording.session.connections.first?.medium, .serial)
        XCTAssertEqual(recording.session.connections.first?.operations.map(\.kind),
                       [.write(handle: 3, value: [0x01, 0x00, 0x06], withResponse: true)])
    }

    /// gzip(1), a tool we did not write.
    private func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-\(UUID().uuidString)")
        try Data(bytes).write(to: input)
        defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(atPath: input.path + ".gz") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-9", "-n", input.path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: input.path + ".gz")))
    }
}

/// pcapng, as Wireshark saves by default: the fixtures' pcap files converted by Wireshark's
/// `editcap -F pcapng` read to the same sessions as the pcap originals.
final class PcapNGCaptureTests: XCTestCase {
    func testEditcapsPcapngReadsAsItsPcap() throws {
        for (name, linkType) in [("bumble-session", UInt32(201)), ("ll-session-256", 256), ("ll-session-272", 272)] {
            let pcapng = try CaptureReader.read(path: fixturePath(name + ".pcapng"))
            let pcap = try CaptureReader.read(path: fixturePath(name + ".pcap"))
            XCTAssertEqual(pcapng.format, .pcapng(linkType: linkType), name)
            XCTAssertEqual(pcapng.connections.count, pcap.connections.count, name)
            XCTAssertGreaterThan(pcapng.connections.count, 0, name)
            XCTAssertEqual(pcapng.connections.map(\.operations), pcap.connections.map(\.operations), name)
            XCTAssertEqual(pcapng.connections.map(\.peer), pcap.connections.map(\.peer), name)
            XCTAssertEqual(pcapng.connections.map(\.services), pcap.connections.map(\.services), name)
        }
    }

    func testEveryTruncationOfAPcapngIsReadOrRefusedWithoutATrap() throws {
        let bytes = try fixtureBytes("ll-session-272.pcapng")
        for length in 0..<bytes.count {
            do {
                _ = try CaptureReader.read(bytes: Array(bytes.prefix(length)), source: "cut.pcapng")
            } catch {
                XCTAssertFalse(error.description.isEmpty)
            }
        }
    }
}
