import DFUKit
import Foundation
import XCTest

/// `DFUKit.scan`, `exec` and `batch` on simulated devices.
final class OperationsAPITests: XCTestCase {
    func testScanListsAFleetWithTheProfilesEachMatches() async throws {
        let profiles = [try Fixtures.profile("vendor-ctrlpt"), try Fixtures.profile("mcumgr-smp")]
        let (found, error) = await collect(DFUKit.scan(device: "sim:vendor-ctrlpt?fleet=3", profiles: profiles))
        XCTAssertNil(error)
        XCTAssertEqual(found.map(\.advertisement.address.description),
                       ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02", "C0:FF:EE:00:00:03"])
        XCTAssertTrue(found.allSatisfy { $0.matchingProfiles == ["vendor-ctrlpt"] }, "\(found.map(\.matchingProfiles))")
        let (none, _) = await collect(DFUKit.scan(device: "sim:vendor-ctrlpt", profiles: [profiles[1]], onlyMatching: true))
        XCTAssertTrue(none.isEmpty)
    }

    func testExecReturnsTheDecodedAnswer() async throws {
        let request = ExecRequest(command: "image_list", profile: try Fixtures.profile("mcumgr-smp"), device: "sim:mcumgr-smp")
        let (events, error) = await collect(DFUKit.exec(request))
        XCTAssertNil(error)
        guard case let .answer(fields, report)? = events.last else { return XCTFail("no answer: \(events)") }
        guard case let .record(body)? = fields["body"] else { return XCTFail("no body: \(fields)") }
        XCTAssertNotNil(body["images"], "\(body.keys.sorted())")
        XCTAssertNotEqual(report.status, .failed)
    }

    func testExecRefusesACommandThatChangesTheDeviceUnlessAllowed() async throws {
        var request = ExecRequest(command: "image_erase", profile: try Fixtures.profile("mcumgr-smp"), device: "sim:mcumgr-smp")
        let (events, error) = await collect(DFUKit.exec(request))
        XCTAssertTrue(events.isEmpty)
        XCTAssertEqual(error?.kind, .usage)
        XCTAssertTrue(error?.message.contains("changes the device") ?? false, error?.message ?? "")
        request.allowChangingDevice = true
        let (_, allowed) = await collect(DFUKit.exec(request))
        XCTAssertNil(allowed)
    }

    func testBatchFlashesTwoSimulatedDevicesAndRecordsThem() async throws {
        let directory = try ScratchDirectory()
        let ledger = MemoryBatchLedger()
        var request = BatchRequest(profile: try Fixtures.profile("vendor-ctrlpt"),
                                   package: try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory)),
                                   device: "sim:vendor-ctrlpt?fleet=2")
        request.line.concurrency = 2
        request.ledger = ledger
        let (events, error) = await collect(DFUKit.batch(request))
        XCTAssertNil(error)
        guard case let .finished(summary)? = events.last else { return XCTFail("no summary: \(events)") }
        XCTAssertEqual(summary.devices, 2)
        XCTAssertEqual(summary.succeeded, 2)
        XCTAssertEqual(summary.failed, 0)
        XCTAssertEqual(ledger.records.filter { $0.result == .succeeded }.map(\.device).sorted(),
                       ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02"])
        let finished = events.filter { if case .event(.deviceFinished) = $0 { true } else { false } }
        XCTAssertEqual(finished.count, 2)

        // The same ledger again: both devices are done, so both are skipped.
        let (again, _) = await collect(DFUKit.batch(request))
        guard case let .finished(second)? = again.last else { return XCTFail("no summary") }
        XCTAssertEqual(second.succeeded, 0)
        XCTAssertEqual(second.skipped, 2)
    }
}
