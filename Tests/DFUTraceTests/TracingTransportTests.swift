import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import DFUTrace
import XCTest

/// The tracing decorator over the simulated vendor device: the flash is the one the engine
/// makes without it (verified), and every value and message is reported with its bytes.
final class TracingTransportTests: XCTestCase {
    func testAVendorFlashIsTracedValueByValueAndMessageByMessage() async throws {
        let profile = try TraceTestSupport.profile("vendor-ctrlpt")
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "vendor-ctrlpt?mtu=23"))
        let recorder = TraceRecorder()
        let transport = TracingTransport(world, catalog: MessageCatalog(profile: profile)) { recorder.record($0) }
        let image = TraceTestSupport.image(size: 3000)
        let report = await FlashSession(profile: profile, images: [image], transport: transport, address: nil).run()
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")

        let written = recorder.values.filter { $0.direction == .written }
        XCTAssertEqual(written.first?.bytes, [0x01, 0x00, 0x06], "info, framed: u16 LE length 1, opcode 06")
        XCTAssertEqual(written.dropFirst().first?.bytes, [0x01, 0x00, 0x05], "then status")
        XCTAssertEqual(written.first?.writeType, .withResponse)
        XCTAssertTrue(written.allSatisfy { $0.characteristic == "control" && $0.bytes.count <= 20 }, "ATT_MTU 23: 20-byte writes")

        let messages = recorder.messages
        let names = messages.compactMap { message -> String? in
            guard case let .decoded(decoded) = message.reading else { return nil }
            return "\(message.direction == .written ? "->" : "<-") \(decoded.name) \(decoded.kind.rawValue)"
        }
        XCTAssertEqual(Array(names.prefix(6)), ["-> info request", "<- info response", "-> status request",
                                                "<- status response", "-> start request", "<- start response"])
        XCTAssertEqual(messages.filter { if case .unknown = $0.reading { true } else { false } }.count, 0)
        let start = try XCTUnwrap(messages.first { TraceTestSupport.decoded($0.reading)?.name == "start" })
        XCTAssertEqual(start.bytes.count, 41, "opcode, size, crc32, sha256")
        XCTAssertEqual(start.values, 3, "41 bytes and a 2-byte header over 20-byte writes")
        XCTAssertEqual(TraceTestSupport.field(TraceTestSupport.decoded(start.reading), "size"), .integer(3000))
        let data = messages.filter { TraceTestSupport.decoded($0.reading)?.name == "data" && $0.direction == .written }
        XCTAssertEqual(data.count, 1, "3000 bytes fit one 4096-byte chunk")
        XCTAssertTrue(recorder.events.contains { if case .disconnected(true, _) = $0.kind { true } else { false } },
                      "activate reboots the device, which drops the link")
        let times = recorder.events.map(\.time)
        XCTAssertEqual(times, times.sorted(), "events come in link-clock order")
    }
}
