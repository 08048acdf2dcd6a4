import DFUEngine
import DFUGATT
import DFUProfile
@testable import DFUTrace
import XCTest

/// The generic device made from a profile: it answers as a device that says yes, so a
/// procedure runs until it needs what only a real device knows; answer rules take it further.
final class GenericDeviceTests: XCTestCase {
    private func flash(_ profileName: String, rules: [String] = [], size: Int = 6000)
        async throws -> (FlashReport, TraceRecorder) {
        let profile = try TraceTestSupport.profile(profileName)
        let parsed = try rules.map { try AnswerRule.parse($0).get() }
        XCTAssertEqual(parsed.compactMap { $0.problem(in: profile) }, [])
        let recorder = TraceRecorder()
        let transport = TracingTransport(GenericDevice(profile: profile, mtu: 247, rules: parsed),
                                         catalog: MessageCatalog(profile: profile)) { recorder.record($0) }
        let report = await FlashSession(profile: profile, images: [TraceTestSupport.image(size: size)],
                                        transport: transport, address: nil).run()
        return (report, recorder)
    }

    private func responses(_ recorder: TraceRecorder, _ name: String) -> [DecodedMessage] {
        recorder.messages.compactMap { TraceTestSupport.decoded($0.reading) }.filter { $0.name == name && $0.kind == .response }
    }

    func testTheVendorProcedureStopsWhereTheDeviceMustReportItsOffset() async throws {
        let (report, recorder) = try await flash("vendor-ctrlpt")
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.kind, .device)
        XCTAssertTrue(report.error?.message.contains("data.next_offset == chunk.end") ?? false, "\(String(describing: report.error))")
        let start = try XCTUnwrap(responses(recorder, "start").first)
        XCTAssertEqual(start.status, "ok")
        XCTAssertEqual(TraceTestSupport.field(start, "max_chunk"), .integer(4096), "a maximum is plausible, not zero")
        XCTAssertEqual(responses(recorder, "data").count, 3, "the data chunk is tried three times (retry attempts: 3)")
    }

    func testAnswerRulesTakeTheVendorProcedureToItsEnd() async throws {
        let (report, recorder) = try await flash("vendor-ctrlpt", rules: [
            "data.next_offset=request.offset + len(request.bytes)", "verify.crc32=start.crc32",
            "verify.sha256=start.sha256", "info.sha256=start.sha256",
        ])
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertEqual(responses(recorder, "data").count, 2, "6000 bytes in 4096-byte chunks")
        XCTAssertTrue(recorder.events.contains { if case .disconnected(true, _) = $0.kind { true } else { false } },
                      "activate reboots the generic device")
    }

    /// SMP answers copy the request's sequence number and carry an op that `match` accepts; the
    /// bodies hold the keys the profile reads (`images` as a list).
    func testSMPAnswersMeetTheirMatchAndHoldWhatTheProfileReads() async throws {
        let (report, recorder) = try await flash("mcumgr-smp", rules: ["upload.body.off=request.cbor.off + len(request.cbor.data)"])
        XCTAssertEqual(report.error?.kind, .device, "the image list cannot show the image: \(String(describing: report.error))")
        let requests = recorder.messages.compactMap { TraceTestSupport.decoded($0.reading) }.filter { $0.kind == .request }
        let answers = recorder.messages.compactMap { TraceTestSupport.decoded($0.reading) }.filter { $0.kind == .response }
        XCTAssertFalse(answers.contains { $0.unsolicited })
        XCTAssertEqual(requests.map { TraceTestSupport.field($0, "seq") }, answers.map { TraceTestSupport.field($0, "seq") })
        for answer in answers {
            guard case let .integer(op)? = TraceTestSupport.field(answer, "op") else { return XCTFail("no op") }
            XCTAssertEqual(op & 7, answer.name == "image_list" || answer.name == "params" ? 1 : 3, answer.name)
        }
        let list = try XCTUnwrap(responses(recorder, "image_list").first)
        guard case let .record(body)? = TraceTestSupport.field(list, "body") else { return XCTFail("no body") }
        XCTAssertEqual(body["images"], .list([]))
        XCTAssertEqual(body["rc"], .integer(0))
        let last = try XCTUnwrap(requests.last { $0.name == "upload" })
        guard case let .record(upload)? = TraceTestSupport.field(last, "cbor"), case let .integer(offset)? = upload["off"],
              case let .bytes(data)? = upload["data"] else { return XCTFail("no upload body") }
        XCTAssertEqual(Int(offset) + data.count, 6000, "the whole image went out")
    }

    func testAnswerRulesAreCheckedAgainstTheProfile() throws {
        let profile = try TraceTestSupport.profile("vendor-ctrlpt")
        XCTAssertNil(try AnswerRule.parse("data.next_offset=1").get().problem(in: profile))
        XCTAssertEqual(try AnswerRule.parse("nope.x=1").get().problem(in: profile),
                       "--answer: profile 'vendor-ctrlpt' has no command 'nope'")
        XCTAssertEqual(try AnswerRule.parse("data.offset=1").get().problem(in: profile),
                       "--answer: the response of 'data' has no field 'offset' (it has: status, next_offset)")
        XCTAssertEqual(try AnswerRule.parse("data.status.x=1").get().problem(in: profile),
                       "--answer: 'status' of 'data' is not a cbor field: it has no keys")
        guard case .failure = AnswerRule.parse("data=1"), case .failure = AnswerRule.parse("data.next_offset"),
              case .failure = AnswerRule.parse("data.next_offset=(") else { return XCTFail("malformed rules are refused") }
    }

    func testTheGenericDatabaseHasTheProfilesCharacteristics() throws {
        let database = GenericDatabase(profile: try TraceTestSupport.profile("nordic-secure-dfu"))
        let characteristics = database.services.flatMap(\.characteristics)
        XCTAssertEqual(characteristics.count, 4)
        XCTAssertEqual(Set(characteristics.compactMap { database.role(of: $0.valueHandle) }),
                       ["control", "packet", "buttonless", "buttonless_bonded"])
        let packet = try XCTUnwrap(characteristics.first { database.role(of: $0.valueHandle) == "packet" })
        XCTAssertTrue(packet.properties.contains(.writeWithoutResponse))
    }
}
