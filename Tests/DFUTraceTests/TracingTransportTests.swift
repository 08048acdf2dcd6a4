import DFUEngine
import DFUGATT
import DFUPackage
import Foundation
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

/// The other shipped protocols over their simulators: every message is read, answers pair with
/// their requests, receipts are read as the profile's notification and stream data as data.
final class TracedProtocolTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: ProfileLibrary.sourceTreeProfilesDirectory)
        .deletingLastPathComponent().appendingPathComponent("firmware-samples")

    private func trace(_ profileName: String, device: String, sample: String, parameters: [String: ParameterValue] = [:])
        async throws -> (FlashReport, TraceRecorder) {
        let profile = try TraceTestSupport.profile(profileName)
        let package = try FirmwarePackage.open(path: Self.samples.appendingPathComponent(sample).path)
        let images = package.images.map {
            FlashImage(name: $0.name, version: $0.version, data: $0.data, initPacket: $0.initPacket ?? [],
                       imageHash: $0.mcubootImage?.imageHash ?? [])
        }
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: device))
        let recorder = TraceRecorder()
        let transport = TracingTransport(world, catalog: MessageCatalog(profile: profile)) { recorder.record($0) }
        let report = await FlashSession(profile: profile, images: images, transport: transport, address: nil,
                                        options: FlashOptions(parameters: parameters)).run()
        return (report, recorder)
    }

    private func decoded(_ recorder: TraceRecorder) -> [DecodedMessage] {
        recorder.messages.compactMap { TraceTestSupport.decoded($0.reading) }
    }

    func testAWindowedSMPUploadPairsEveryAnswerWithItsRequest() async throws {
        let (report, recorder) = try await trace("mcumgr-smp", device: "mcumgr-smp", sample: "mcuboot/app-ecdsa-p256.bin")
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertFalse(recorder.messages.contains { if case .decoded = $0.reading { false } else { true } })
        let messages = decoded(recorder)
        XCTAssertFalse(messages.contains { $0.unsolicited })
        let uploads = messages.filter { $0.name == "upload" }
        XCTAssertEqual(uploads.filter { $0.kind == .request }.count, uploads.filter { $0.kind == .response }.count)
        XCTAssertGreaterThan(uploads.count, 20)
        XCTAssertEqual(Set(messages.map(\.name)), ["params", "image_list", "upload", "image_test", "reset", "image_confirm_hash"])
    }

    func testNordicReceiptsAreReadAsTheProfilesNotification() async throws {
        let (report, recorder) = try await trace("nordic-secure-dfu", device: "nordic-secure-dfu?mtu=23",
                                                 sample: "nordic/app-signed.zip", parameters: ["prn": .integer(4)])
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        let messages = decoded(recorder)
        XCTAssertGreaterThan(messages.filter { $0.name == "prn" && $0.kind == .notification }.count, 10)
        XCTAssertEqual(messages.filter { $0.name == "checksum" && $0.kind == .request }.count,
                       messages.filter { $0.name == "checksum" && $0.kind == .response }.count)
        let packet = recorder.messages.filter { $0.characteristic == "packet" }
        XCTAssertFalse(packet.isEmpty)
        XCTAssertTrue(packet.allSatisfy { if case .raw = $0.reading { true } else { false } })
        XCTAssertFalse(recorder.messages.contains { if case .unknown = $0.reading { true } else { false } })
    }
}
