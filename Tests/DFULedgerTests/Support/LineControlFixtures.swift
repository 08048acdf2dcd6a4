import DFULedger
import Foundation
import XCTest

/// The line controls as a station and an operator use them, the same on SQLite and PostgreSQL.
enum LineControlFixtures {
    /// Records `results` on `line` (one device each, alternating stations a and b), with a failed
    /// attempt on `other` in between that the line must not count; returns the devices.
    @discardableResult
    static func record(_ results: [Attempt.Result], line: String, other: String, package: String, prefix: String,
                       into ledger: any Ledger, first: Int = 0) async throws -> [String] {
        var devices: [String] = []
        for (index, result) in results.enumerated() {
            let device = LedgerFixtures.device(first + index, prefix: prefix)
            let station = index.isMultiple(of: 2) ? "a" : "b"
            let claim = try await XCTUnwrapAsync(await ledger.claim(device: device, packageSHA256: package, station: station))
            var attempt = LedgerFixtures.attempt(claim, result: result, offset: Double(index))
            attempt.line = line
            try await ledger.recordAttempt(attempt)
            try await ledger.release(claim)
            devices.append(device)
            if index == 0, first == 0 {
                let stray = try await XCTUnwrapAsync(await ledger.claim(device: LedgerFixtures.device(99, prefix: prefix),
                                                                         packageSHA256: package, station: "c"))
                var elsewhere = LedgerFixtures.attempt(stray, result: .failed)
                elsewhere.line = other
                try await ledger.recordAttempt(elsewhere)
                try await ledger.release(stray)
            }
        }
        return devices
    }

    /// Halts, a second halt refused, a resume that restarts the rule's window, a second resume
    /// refused; a quarantine, its failure count, a release that restarts it.
    static func exercise(_ ledger: any Ledger, line: String, package: String, prefix: String) async throws {
        let other = line + "-other"
        let devices = try await record([.failed, .succeeded, .failed, .failed], line: line, other: other, package: package,
                                       prefix: prefix, into: ledger)
        var outcomes = try await ledger.lineOutcomes(line: line, last: 3)
        XCTAssertEqual(outcomes.map(\.device), Array(devices.suffix(3)), "the last 3 of the line, oldest first")
        XCTAssertEqual(outcomes.map(\.failed), [false, true, true])
        XCTAssertEqual(outcomes.map(\.station), ["b", "a", "b"], "both stations' attempts count together")
        let all = try await ledger.lineOutcomes(line: line, last: 10)
        XCTAssertEqual(all.count, 4, "fewer than N so far: all of them, and not the other line's")

        let halt = LineEvent(kind: .halted, line: line, station: "b", reason: "3 of 4 failed", rule: "failed >= 3 of last 10",
                             attempts: all.map(\.summary))
        let halted = try await ledger.recordLineEvent(halt)
        XCTAssertTrue(halted)
        let again = try await ledger.recordLineEvent(halt)
        XCTAssertFalse(again, "a halted line is not halted twice")
        var events = try await ledger.lineEvents(line: line)
        let current = try XCTUnwrap(LineEvent.currentHalt(of: line, in: events))
        XCTAssertEqual(current.rule, "failed >= 3 of last 10")
        XCTAssertEqual(current.station, "b")
        XCTAssertEqual(current.attempts, all.map(\.summary))
        let otherEvents = try await ledger.lineEvents(line: other)
        XCTAssertNil(LineEvent.currentHalt(of: other, in: otherEvents))

        let resume = LineEvent(kind: .resumed, line: line, operatorName: "ann", reason: "fixture reseated")
        let resumed = try await ledger.recordLineEvent(resume)
        XCTAssertTrue(resumed)
        let twice = try await ledger.recordLineEvent(resume)
        XCTAssertFalse(twice, "a running line is not resumed")
        outcomes = try await ledger.lineOutcomes(line: line, last: 10)
        XCTAssertEqual(outcomes, [], "after a resume the rule counts only later attempts")
        try await record([.failed], line: line, other: other, package: package, prefix: prefix, into: ledger, first: 10)
        outcomes = try await ledger.lineOutcomes(line: line, last: 10)
        XCTAssertEqual(outcomes.map(\.failed), [true])

        let device = devices[0]
        var failures = try await ledger.failedAttempts(device: device, packageSHA256: package)
        XCTAssertEqual(failures, 1)
        let quarantine = LineEvent(kind: .quarantined, line: line, station: "a", reason: "1 failed", device: device,
                                   packageSHA256: package)
        let quarantined = try await ledger.recordLineEvent(quarantine)
        XCTAssertTrue(quarantined)
        let quarantinedTwice = try await ledger.recordLineEvent(quarantine)
        XCTAssertFalse(quarantinedTwice)
        let release = LineEvent(kind: .released, line: nil, operatorName: "bob", device: device)
        let released = try await ledger.recordLineEvent(release)
        XCTAssertTrue(released)
        let releasedTwice = try await ledger.recordLineEvent(release)
        XCTAssertFalse(releasedTwice, "a free device is not released")
        failures = try await ledger.failedAttempts(device: device, packageSHA256: package)
        XCTAssertEqual(failures, 0, "a release counts the device's failures afresh")

        events = try await ledger.lineEvents(line: line)
        XCTAssertEqual(events.map(\.kind), [.halted, .resumed, .quarantined, .released])
        XCTAssertEqual(events[1].operatorName, "ann")
        XCTAssertEqual(events[1].reason, "fixture reseated")
        XCTAssertEqual(events[3].operatorName, "bob")
        XCTAssertNil(LineEvent.currentQuarantine(of: device, in: events))
        let attempts = try await ledger.attempts(AttemptFilter(packageSHA256: package))
        XCTAssertEqual(Set(attempts.compactMap(\.line)), [line, other], "each attempt keeps its line")
    }
}
