import DFUBytes
import DFUCapture
import DFUEngine
import DFUGATT
import DFUSimulator
import DFUTrace
import Foundation
import XCTest

/// A simulated vendor flash recorded and read back: the operations are what went over the link
/// (as the tracing wrapper saw them), the image is stored once, and every byte comes back.
final class RecordingTransportTests: XCTestCase {
    func testARecordedVendorFlashReadsBackAsWhatWentOverTheLink() async throws {
        let profile = try TraceTestSupport.profile("vendor-ctrlpt")
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "vendor-ctrlpt?mtu=185"))
        let image = TraceTestSupport.image(size: 20_000)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString).dfurec").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        let header = RecordingHeader(startedAt: "2026-12-02T00:00:00Z", profile: profile.name, device: "sim:vendor-ctrlpt",
                                     images: [.init(name: image.name, size: image.data.count, sha256: image.sha256.hexString)])
        let writer = try RecordingWriter(path: path, header: header, images: [image.data])
        let recording = RecordingTransport(world, catalog: MessageCatalog(profile: profile), writer: writer)
        let tracer = TraceRecorder()
        let transport = TracingTransport(recording, catalog: MessageCatalog(profile: profile)) { tracer.record($0) }
        let report = await FlashSession(profile: profile, images: [image], transport: transport, address: nil,
                                        onEvent: { recording.recorder.note($0) }).run()
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        writer.close()

        let read = try RecordingReader.read(path: path)
        XCTAssertEqual(read.header.profile, "vendor-ctrlpt")
        XCTAssertEqual(read.session.connections.count, 2, "before and after activate's reboot")
        XCTAssertEqual(read.session.notes, [])
        let operations = read.session.connections.flatMap(\.operations)
        let written = operations.compactMap { if case let .write(_, value, _) = $0.kind { value } else { nil } }
        let notified = operations.compactMap { if case let .notification(_, value, _) = $0.kind { value } else { nil } }
        XCTAssertEqual(written, tracer.values.filter { $0.direction == .written }.map(\.bytes))
        XCTAssertEqual(notified, tracer.values.filter { $0.direction == .notified }.map(\.bytes))
        XCTAssertEqual(operations.filter { $0.kind == .writeAcknowledged }.count, written.count, "every write with response")
        let first = try XCTUnwrap(read.session.connections.first)
        XCTAssertEqual(first.peer, DeviceAddress(string: "C0:FF:EE:00:00:01"))
        XCTAssertEqual(first.mtu, 185)
        XCTAssertEqual(first.services?.first?.characteristics.first?.uuid, profile.characteristics.first?.uuid)
        XCTAssertEqual(first.ending?.byDevice, true, "the device rebooted")
        XCTAssertEqual(read.session.connections.last?.ending?.byDevice, false, "DFUKit closed the last link")

        // The image once: its blob, and no run of it written out as hex.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(read.blobs[image.sha256.hexString], image.data)
        XCTAssertFalse(text.contains(image.data[5000..<5032].hexString))
        XCTAssertEqual(text.components(separatedBy: "\n{\"blob\":").count - 1, 1, "one blob line")
        XCTAssertEqual(text.components(separatedBy: Data(image.data).base64EncodedString()).count - 1, 1)
        let sent = written.reduce(into: [UInt8]()) { $0 += $1 }
        XCTAssertNotNil(sent.firstRange(of: image.data[4096..<8192]), "the exact bytes restored")

        // The profile's messages and the engine's notes.
        let messages = read.events.compactMap { if case let .message(message) = $0.kind { message } else { nil } }
        XCTAssertEqual(Array(messages.prefix(2).map { "\($0.direction.rawValue) \($0.name ?? "?") \($0.role ?? "?")" }),
                       ["write info request", "notify info response"])
        XCTAssertEqual(messages.first { $0.name == "start" }?.fields.first { $0.name == "size" }?.value, "20000")
        let notes = read.events.compactMap { if case let .note(text) = $0.kind { text } else { nil } }
        XCTAssertTrue(notes.contains("phase transfer: entered"), "\(notes)")
        XCTAssertTrue(read.events.contains { if case .link = $0.kind { true } else { false } }, "the link's grant")
        let times = read.events.map(\.time)
        XCTAssertEqual(times, times.sorted(), "link-clock order")
    }
}
