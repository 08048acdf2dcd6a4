import DFUKit
import Foundation
import XCTest

/// The line controls through the library's front door (`DFUKit.batch`) on simulated fleets: a
/// halt stops new devices, a resume lets the line go on, two stations on one ledger both stop,
/// a device that keeps failing is quarantined.
final class LineControlBatchTests: XCTestCase {
    private var directory: ScratchDirectory!
    private var package: FirmwarePackage!

    override func setUpWithError() throws {
        directory = try ScratchDirectory()
        package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: 4 * 1024))
    }

    /// `fleet=8&fault-rate=0.3&seed=6`: devices 1, 2, 4 and 8 fail their first attempt.
    private func request(_ ledger: MemoryBatchLedger, fleet: String = "fleet=8&fault-rate=0.3&seed=6",
                         rule: String = "failed >= 2 of last 3", whenHalted: WhenHalted = .exit) throws -> BatchRequest {
        var request = BatchRequest(profile: try Fixtures.profile("vendor-ctrlpt"), package: package,
                                   device: "sim:vendor-ctrlpt?" + fleet)
        request.ledger = ledger
        request.line.retries = 0
        request.line.haltWhen = try Preflight.haltRule(rule, option: "halt-when")
        request.line.whenHalted = whenHalted
        request.line.haltPollInterval = .seconds(1)
        return request
    }

    private func summary(_ events: [BatchUpdate]) -> BatchSummary? {
        guard case let .finished(summary)? = events.last else { return nil }
        return summary
    }

    func testAHaltStopsNewDevices() async throws {
        let ledger = MemoryBatchLedger(line: "east")
        let (events, error) = await collect(DFUKit.batch(try request(ledger)))
        XCTAssertNil(error)
        let summary = try XCTUnwrap(summary(events))
        XCTAssertEqual(summary.lineHalt?.rule, "failed >= 2 of last 3")
        XCTAssertEqual(summary.halts, 1)
        XCTAssertEqual(summary.devices, 2, "devices 1 and 2 failed; none started after")
        XCTAssertEqual(ledger.records.map(\.device), ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02"])
        let halt = try await XCTUnwrapAsync(await ledger.lineHalt())
        XCTAssertEqual(halt.attempts, ["C0:FF:EE:00:00:01 #1 on station: failed", "C0:FF:EE:00:00:02 #1 on station: failed"])
    }

    func testAWaitingLineGoesOnWhenResumed() async throws {
        let ledger = MemoryBatchLedger(line: "east")
        var halts = 0, resumes = 0
        var finished: BatchSummary?
        var waiting = try request(ledger, whenHalted: .wait)
        waiting.line.concurrency = 2 // two slots wait on the halt; the resume is announced once
        for try await update in DFUKit.batch(waiting) {
            switch update {
            case .event(.lineHalted(_, _, let waiting)):
                halts += 1
                XCTAssertTrue(waiting)
                // The operator comes after a while: meanwhile no device starts.
                Task {
                    try await Task.sleep(for: .milliseconds(1500))
                    XCTAssertLessThanOrEqual(ledger.records.count, 3, "no device started on the halted line (the one in flight at the halt finished)")
                    XCTAssertTrue(ledger.resume(), "the operator resumes the line")
                }
            case .event(.lineResumed): resumes += 1
            case .finished(let summary): finished = summary
            default: break
            }
        }
        XCTAssertEqual(halts, 1)
        XCTAssertEqual(resumes, 1, "announced once, not once per waiting slot")
        XCTAssertFalse(ledger.resume(), "not halted any more")
        let summary = try XCTUnwrap(finished)
        XCTAssertNil(summary.lineHalt)
        XCTAssertEqual(summary.devices, 8, "the line went on to the last device")
        XCTAssertEqual(summary.failed, 4)
        XCTAssertEqual(summary.halts, 1, "after the resume only 4 and 8 failed, never 2 of the last 3")
    }

    func testTwoStationsOnOneLedgerBothStop() async throws {
        let ledger = MemoryBatchLedger(line: "east")
        // Every device fails its first attempt; two stations take devices of one fleet at once.
        let both = try request(ledger, fleet: "fleet=40&fault-rate=1", rule: "failed >= 3 of last 3")
        async let first = collect(DFUKit.batch(both))
        async let second = collect(DFUKit.batch(both))
        let (a, b) = await (first, second)
        let summaries = try [a, b].map { try XCTUnwrap(summary($0.events)) }
        XCTAssertTrue(summaries.allSatisfy { $0.lineHalt != nil }, "both stations stop on the halt")
        XCTAssertEqual(summaries.map(\.halts).reduce(0, +), 1, "one halt recorded")
        XCTAssertLessThanOrEqual(ledger.records.count, 5, "3 failures, and at most one device in flight per station")

        let (late, _) = await collect(DFUKit.batch(try request(ledger, fleet: "fleet=40")))
        let lateSummary = try XCTUnwrap(summary(late))
        XCTAssertEqual(lateSummary.devices, 0, "a station that starts on a halted line starts no device")
        XCTAssertNotNil(lateSummary.lineHalt)
    }

    func testADeviceThatKeepsFailingIsQuarantined() async throws {
        let ledger = MemoryBatchLedger(line: "east")
        var request = try request(ledger, fleet: "fleet=2&fault=unresponsive-after:2000", rule: "failed >= 10 of last 10")
        request.line.retries = 3
        request.line.quarantineAfter = 2
        request.line.backoff = .milliseconds(1)
        let (events, _) = await collect(DFUKit.batch(request))
        let summary = try XCTUnwrap(summary(events))
        XCTAssertEqual(summary.quarantined, 2)
        XCTAssertEqual(summary.attempts, 4, "two attempts each, then no more retries")
        let quarantined = try await ledger.isQuarantined(device: "C0:FF:EE:00:00:01")
        XCTAssertTrue(quarantined)

        let (rerun, _) = await collect(DFUKit.batch(request))
        XCTAssertEqual(self.summary(rerun)?.quarantinedSkipped, 2, "never claimed again automatically")
        XCTAssertEqual(ledger.records.count, 4)
        XCTAssertTrue(ledger.releaseQuarantine(device: "C0:FF:EE:00:00:01"))
        let (released, _) = await collect(DFUKit.batch(request))
        XCTAssertEqual(self.summary(released)?.attempts, 2, "the released device is tried again, up to the limit")
    }

    func testAMalformedRuleIsRefusedWithTheSameMessageEverywhere() {
        XCTAssertThrowsError(try Preflight.haltRule("failed >= 3 off last 10", option: "--halt-when")) { error in
            XCTAssertEqual((error as? DFUKitError)?.kind, .usage)
            XCTAssertEqual((error as? DFUKitError)?.message, "--halt-when: expected 'of', found 'off' at column 13 (the rule "
                           + "is 'failed >= K of last N', e.g. 'failed >= 3 of last 10')")
        }
        var line = LineConfiguration()
        line.quarantineAfter = 0
        XCTAssertThrowsError(try Preflight.checkLineControls(line))
    }
}

func XCTUnwrapAsync<T>(_ value: T?, file: StaticString = #filePath, line: UInt = #line) throws -> T {
    try XCTUnwrap(value, file: file, line: line)
}
