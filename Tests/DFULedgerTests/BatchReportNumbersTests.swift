import DFULedger
import Foundation
import XCTest

/// The numbers reports print: on the clock the attempts ran on, per device over all its
/// attempts, skipped devices, and charts whose size is bounded whatever the number of devices.
final class BatchReportNumbersTests: XCTestCase {
    private let start = LedgerFixtures.start

    private func attempt(_ device: Int, claim: String? = nil, at offset: Double, seconds: Double, _ result: Attempt.Result,
                         station: String = "line-1", clock: Attempt.Clock? = .wall, version: String? = nil) -> Attempt {
        Attempt(claimID: claim ?? "claim-\(device)", device: LedgerFixtures.device(device), packageSHA256: LedgerFixtures.package,
                profile: "vendor-ctrlpt", station: station, startedAt: start.addingTimeInterval(offset),
                endedAt: start.addingTimeInterval(offset + seconds), bytes: result == .succeeded ? 100_000 : 0, result: result,
                errorKind: result == .failed ? "timeout" : nil, attemptNumber: 1, seconds: seconds, clock: clock,
                deviceVersion: version)
    }

    func testADeviceTimeIsAllItsAttempts() throws {
        let report = BatchReport(attempts: [
            attempt(1, at: 0, seconds: 90, .failed), attempt(1, at: 92, seconds: 91.68, .failed),
            attempt(1, at: 190, seconds: 7.92, .succeeded),
        ], ledger: "sqlite:x", generatedAt: start)
        let row = try XCTUnwrap(report.rows.first)
        XCTAssertEqual(row.totalSeconds, 189.6, accuracy: 1e-9)
        XCTAssertEqual(row.seconds, 7.92, accuracy: 1e-9)
        XCTAssertTrue(report.renderText().contains("per device: 189.6 s median, 189.6 s p95, 189.6 s max"), report.renderText())
        let html = report.renderHTML()
        XCTAssertTrue(html.contains("succeeded after 3 attempts, 189.60 s in all (the deciding one 7.92 s)"))
        XCTAssertFalse(html.contains("succeeded in 7.92 s"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.renderJSON().utf8)) as? [String: Any])
        let rows = try XCTUnwrap(json["rows"] as? [[String: Any]])
        XCTAssertEqual(rows.first?["total_seconds"] as? Double, 189.6)
        XCTAssertEqual(json["attempt_seconds"] as? Double, 189.6)
    }

    /// A simulated run's times are simulated, and the report says so; the rate is over them.
    func testASimulatedRunSaysSoAndRatesUseItsClock() throws {
        let report = BatchReport(attempts: [
            attempt(1, at: 0, seconds: 1800, .succeeded, clock: .simulated),
            attempt(2, at: 1800, seconds: 1800, .succeeded, clock: .simulated),
        ], ledger: "sqlite:x", generatedAt: start)
        XCTAssertEqual(report.clock, .simulated)
        XCTAssertEqual(report.devicesPerHour, 2, accuracy: 1e-9)
        let text = report.renderText()
        XCTAssertTrue(text.contains("time:       simulated 2024-05-01T08:00:00.000Z to 2024-05-01T09:00:00.000Z "
                                    + "(3600.0 s, 2.0 devices/hour simulated)"), text)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.renderJSON().utf8)) as? [String: Any])
        XCTAssertEqual(json["clock"] as? String, "simulated")
        XCTAssertEqual(json["devices_per_hour"] as? Double, 2)
        XCTAssertTrue(report.renderHTML().contains("Devices / hour simulated"))

        let mixed = BatchReport(attempts: [attempt(1, at: 0, seconds: 10, .succeeded, clock: .simulated),
                                           attempt(2, at: 0, seconds: 10, .succeeded, clock: .wall)],
                                ledger: "sqlite:x", generatedAt: start)
        XCTAssertEqual(mixed.clock, .mixed)
        XCTAssertTrue(mixed.renderText().contains("(simulated and wall clocks mixed)"))
    }

    /// Two runs an hour apart: the rate counts the time the line ran, not the pause.
    func testThePauseBetweenRunsIsNotCountedInTheRate() throws {
        let report = BatchReport(attempts: [
            attempt(1, at: 0, seconds: 10, .succeeded), attempt(2, at: 5, seconds: 10, .succeeded),
            attempt(3, at: 3615, seconds: 5, .succeeded),
        ], ledger: "sqlite:x", generatedAt: start)
        XCTAssertEqual(report.wallSeconds, 3620, accuracy: 1e-9)
        XCTAssertEqual(report.busySeconds, 20, accuracy: 1e-9)
        XCTAssertEqual(report.attemptSeconds, 25, accuracy: 1e-9)
        XCTAssertEqual(report.devicesPerHour, 3 * 3600 / 20, accuracy: 1e-9)
        XCTAssertTrue(report.renderText().contains("(3620.0 s, busy 20.0 s, 540.0 devices/hour)"), report.renderText())
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.renderJSON().utf8)) as? [String: Any])
        XCTAssertEqual(json["busy_seconds"] as? Double, 20)
        XCTAssertEqual(json["wall_seconds"] as? Double, 3620)
    }

    func testSkippedDevicesAreCountedWithTheVersionSeen() throws {
        let report = BatchReport(attempts: [
            attempt(1, at: 0, seconds: 10, .succeeded),
            attempt(2, at: 0, seconds: 0.2, .skipped, version: "1.1.0"),
            attempt(3, at: 1, seconds: 0.2, .skipped, version: "1.1.0"),
        ], ledger: "sqlite:x", generatedAt: start)
        XCTAssertEqual(report.skipped, 2)
        XCTAssertEqual(report.succeeded, 1)
        let text = report.renderText()
        XCTAssertTrue(text.contains("devices:    3: 1 succeeded, 0 failed, 2 skipped (already running the target) (3 attempts)"), text)
        XCTAssertTrue(text.contains("skipped:    2 already ran the target (version seen 1.1.0: 2)"), text)
        XCTAssertTrue(text.hasSuffix("result:     every device is done (1 succeeded, 2 skipped as already running the target)\n"), text)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.renderJSON().utf8)) as? [String: Any])
        XCTAssertEqual(json["skipped"] as? Int, 2)
        XCTAssertEqual((json["rows"] as? [[String: Any]])?.compactMap { $0["device_version"] as? String }, ["1.1.0", "1.1.0"])
        XCTAssertEqual(LedgerSummary(attempts: [
            attempt(2, at: 0, seconds: 0.2, .skipped, version: "1.1.0"),
        ]).skipped, 1)
    }

    /// A device flashed again (skip-done: false) stands as its latest claim left it; a late
    /// record from a claim older than the success does not undo it.
    func testTheLatestClaimDecidesADeviceFlashedAgain() {
        let flashedAgain = BatchReport(attempts: [
            attempt(1, claim: "first", at: 0, seconds: 10, .succeeded),
            attempt(1, claim: "second", at: 100, seconds: 10, .failed),
        ], ledger: "sqlite:x", generatedAt: start)
        XCTAssertEqual(flashedAgain.rows.first?.result, .failed)
        let lateRecord = BatchReport(attempts: [
            attempt(1, claim: "lost-lease", at: 0, seconds: 10, .failed),
            attempt(1, claim: "took-over", at: 700, seconds: 10, .succeeded),
            attempt(1, claim: "lost-lease", at: 20, seconds: 900, .failed),
        ], ledger: "sqlite:x", generatedAt: start)
        XCTAssertEqual(lateRecord.rows.first?.result, .succeeded)
    }

    /// 500 devices: histograms and the stations' timeline instead of one bar per device, and no
    /// chart taller than 1,000 px (each was 2,544 px before).
    func testFiveHundredDevicesGiveBoundedCharts() throws {
        let report = BatchReport(attempts: LargeSampleLine.attempts(), ledger: "sqlite:x", generatedAt: start)
        XCTAssertEqual(report.devices, 500)
        XCTAssertEqual(report.clock, .simulated)
        let html = report.renderHTML()
        for id in ["chart-duration-histogram", "chart-throughput-histogram", "chart-timeline", "chart-causes"] {
            XCTAssertTrue(html.contains("<svg id=\"\(id)\""), id)
        }
        XCTAssertFalse(html.contains("<svg id=\"chart-duration\""), "no chart with one bar per device")
        XCTAssertEqual(html.components(separatedBy: "<rect class=\"span ").count - 1, report.attempts, "every attempt on the timeline")
        XCTAssertEqual(html.components(separatedBy: "<tr class=\"").count - 1, 500, "the table still lists every device")
        let heights = Self.svgHeights(html)
        XCTAssertEqual(heights.count, 4)
        XCTAssertTrue(heights.allSatisfy { $0 <= 1000 }, "\(heights)")
        // The histogram counts every device once.
        let columns = html.components(separatedBy: "<svg id=\"chart-duration-histogram\"")[1].components(separatedBy: "</svg>")[0]
        let counted = columns.components(separatedBy: "<title>").dropFirst(2).compactMap { title -> Int? in
            guard let colon = title.range(of: ": ") else { return nil }
            return Int(title[colon.upperBound...].prefix { $0.isNumber })
        }.reduce(0, +)
        XCTAssertEqual(counted, 500)
    }

    func testEvenFiftyStationsAndManyCausesKeepTheChartsBounded() {
        var attempts: [Attempt] = []
        for index in 0..<2_000 {
            attempts.append(Attempt(claimID: "c\(index)", device: LedgerFixtures.device(index), packageSHA256: "p",
                                    profile: "x", station: "station-\(index % 50)",
                                    startedAt: start.addingTimeInterval(Double(index)), endedAt: start.addingTimeInterval(Double(index) + 30),
                                    bytes: 10, result: .failed, errorKind: "kind-\(index % 30)", attemptNumber: 1))
        }
        let html = BatchReport(attempts: attempts, ledger: "sqlite:x", generatedAt: start).renderHTML()
        let heights = Self.svgHeights(html)
        XCTAssertTrue(heights.allSatisfy { $0 <= 1000 }, "\(heights)")
        XCTAssertTrue(html.contains("35 other stations"))
        XCTAssertTrue(html.contains("19 other causes"))
    }

    /// The `height` of every `<svg>` element.
    static func svgHeights(_ html: String) -> [Int] {
        html.components(separatedBy: "<svg ").dropFirst().compactMap { element in
            guard let range = element.range(of: "height=\"") else { return nil }
            return Int(element[range.upperBound...].prefix { $0.isNumber })
        }
    }
}
