import DFUBytes
import DFUCapture
import DFUGATT
import DFUProfile
@testable import DFUTrace
import XCTest

/// A capture read by a profile: messages decoded by name and field, and what the profile cannot
/// explain marked (an unknown opcode, values that break the framing, a checksum that does not
/// verify); handles named by the capture's discovery, or by what their values read as.
final class CaptureInspectionTests: XCTestCase {
    private func messages(_ connection: CaptureInspection.Connection) -> [TraceEvent.Message] {
        connection.events.compactMap { if case let .message(message) = $0.kind { message } else { nil } }
    }

    func testMessagesAreDecodedAndTheFirstUnknownOpcodeIsNamed() throws {
        var session = ReplayScriptTests.vendorSession()
        session.connections[0].operations.append(CapturedOperation(
            time: .milliseconds(400), kind: .write(handle: ReplayScriptTests.control, value: [0x01, 0x00, 0x7F], withResponse: true)))
        let inspection = CaptureInspection(session, profile: try TraceTestSupport.profile("vendor-ctrlpt"))
        let connection = try XCTUnwrap(inspection.connections.first)
        XCTAssertEqual(connection.naming, .discovery)
        XCTAssertEqual(connection.names[ReplayScriptTests.control], "control")
        let read = messages(connection)
        XCTAssertEqual(read.count, 3)
        guard case let .decoded(start) = read[0].reading else { return XCTFail("the start request is the profile's") }
        XCTAssertEqual(start.name, "start")
        XCTAssertEqual(TraceTestSupport.field(start, "size"), .integer(1024))
        guard case let .decoded(answer) = read[1].reading else { return XCTFail("its answer is the profile's") }
        XCTAssertEqual(answer.kind, .response)
        XCTAssertEqual(TraceTestSupport.field(answer, "max_chunk"), .integer(4096))
        XCTAssertEqual(inspection.messages, 3)
        XCTAssertEqual(inspection.decoded, 2)
        let first = try XCTUnwrap(inspection.firstUnexplained)
        XCTAssertEqual(first.connection, 1)
        XCTAssertEqual(first.time, .milliseconds(400))
        XCTAssertTrue(first.reason.hasPrefix("written to control: 7f: no command of the profile fits"), first.reason)
    }

    func testValuesThatBreakTheFramingAreMarked() throws {
        var session = ReplayScriptTests.vendorSession()
        // A length header of 0xFFFF: past the framing's 8192-byte max-payload.
        session.connections[0].operations.append(CapturedOperation(
            time: .milliseconds(500), kind: .notification(handle: ReplayScriptTests.control, value: [0xFF, 0xFF, 0x85], indication: false)))
        let inspection = CaptureInspection(session, profile: try TraceTestSupport.profile("vendor-ctrlpt"))
        let garbled = inspection.connections[0].events.contains { if case .garbled = $0.kind { true } else { false } }
        XCTAssertTrue(garbled)
        XCTAssertTrue(inspection.firstUnexplained?.reason.hasPrefix("values on control break its framing") ?? false,
                      inspection.firstUnexplained?.reason ?? "nothing marked")
    }

    func testAChecksumThatDoesNotVerifyIsMarked() throws {
        let profile = try TraceTestSupport.profile("telink-ota")
        let ota = try XCTUnwrap(profile.characteristics.first { $0.name == "ota" })
        let service = GATTService(uuid: ota.service, characteristics: [
            GATTCharacteristic(service: ota.service, uuid: ota.uuid, valueHandle: 0x0030, properties: [.writeWithoutResponse, .notify]),
        ])
        let body: [UInt8] = [0x00, 0x00] + Array(0..<16)
        let crc = UInt16(try XCTUnwrap(CRCCatalogue.algorithm(named: "CRC-16/MODBUS")).checksum(body))
        let good = body + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        var bad = good
        bad[19] ^= 0x01
        let session = CapturedSession(source: "hand-built", format: .btsnoop(datalink: 1002), connections: [
            CapturedConnection(peer: nil, services: [service], operations: [
                CapturedOperation(time: .zero, kind: .write(handle: 0x0030, value: good, withResponse: false)),
                CapturedOperation(time: .milliseconds(5), kind: .write(handle: 0x0030, value: bad, withResponse: false)),
            ]),
        ])
        let inspection = CaptureInspection(session, profile: profile)
        let read = messages(inspection.connections[0])
        guard case let .decoded(first) = read[0].reading, case let .decoded(second) = read[1].reading else {
            return XCTFail("both are ota_data packets")
        }
        XCTAssertEqual(first.name, "ota_data")
        XCTAssertEqual(first.problems, [])
        XCTAssertEqual(second.problems.count, 1)
        XCTAssertTrue(second.problems[0].hasPrefix("field 'crc' holds 0x"), second.problems[0])
        XCTAssertEqual(inspection.firstUnexplained?.time, .milliseconds(5))
    }

    func testWithoutDiscoveryHandlesAreNamedByWhatTheirValuesReadAs() throws {
        var session = ReplayScriptTests.vendorSession()
        session.connections[0].services = nil
        let inspection = CaptureInspection(session, profile: try TraceTestSupport.profile("vendor-ctrlpt"))
        XCTAssertEqual(inspection.connections[0].naming, .content)
        XCTAssertEqual(inspection.connections[0].names, [ReplayScriptTests.control: "control"])
        guard case let .decoded(start)? = messages(inspection.connections[0]).first?.reading else {
            return XCTFail("named by content, the start request is read")
        }
        XCTAssertEqual(start.name, "start")
    }

    func testWithoutAProfileValuesAreListedByUUID() {
        let inspection = CaptureInspection(ReplayScriptTests.vendorSession(), profile: nil)
        XCTAssertEqual(inspection.connections[0].naming, .none)
        XCTAssertEqual(inspection.connections[0].names[ReplayScriptTests.control], ReplayScriptTests.vendorControl.description)
        XCTAssertEqual(inspection.messages, 0)
        XCTAssertNil(inspection.firstUnexplained)
    }
}
