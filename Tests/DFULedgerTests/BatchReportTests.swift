import DFULedger
import Foundation
import XCTest

/// The report model and its four renderings, against golden files; JUnit checked by Python's XML
/// parser (expat), HTML checked for self-containment and escaping.
final class BatchReportTests: XCTestCase {
    func testTheModelCountsDevicesAttemptsAndCauses() {
        let report = ReportFixture.report
        XCTAssertEqual(report.devices, 5)
        XCTAssertEqual(report.succeeded, 3)
        XCTAssertEqual(report.failed, 1)
        XCTAssertEqual(report.cancelled, 1)
        XCTAssertEqual(report.attempts, 8)
        XCTAssertEqual(report.failedAttempts, 4)
        XCTAssertEqual(report.byCause.map(\.kind), ["timeout", "device-error:0x05", "disconnected"])
        XCTAssertEqual(report.byCause.map(\.attempts), [2, 1, 1])
        XCTAssertEqual(report.byCause.map(\.devices), [2, 1, 1])
        XCTAssertEqual(report.rows.map(\.device), (1...5).map { LedgerFixtures.device($0) })
        let retried = report.rows[1]
        XCTAssertEqual(retried.result, .succeeded)
        XCTAssertEqual(retried.attempts, 2)
        XCTAssertEqual(retried.seconds, 14)
        XCTAssertEqual(retried.totalSeconds, 44)
        XCTAssertEqual(retried.serial, "SN-0002")
        XCTAssertEqual(retried.lastErrorKind, "timeout", "kept after a successful retry")
        XCTAssertEqual(report.rows[2].lastErrorKind, "device-error:0x05")
        XCTAssertEqual(report.wallSeconds, 51.75)
        XCTAssertEqual(report.stations, ["line-1", "line-2"])
        XCTAssertEqual(LedgerSummary(attempts: ReportFixture.attempts()),
                       LedgerSummary(devices: 5, succeeded: 3, failed: 1, cancelled: 1, attempts: 8))
    }

    func testTextGolden() throws {
        try assertGolden(ReportFixture.report.renderText(), "report.txt")
    }

    func testJSONGolden() throws {
        let json = ReportFixture.report.renderJSON()
        try assertGolden(json, "report.json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object["devices"] as? Int, 5)
        XCTAssertEqual(object["succeeded"] as? Int, 3)
        XCTAssertEqual(object["failed"] as? Int, 1)
        XCTAssertEqual(object["attempts"] as? Int, 8)
        XCTAssertEqual((object["by_cause"] as? [String: Any])?["timeout"] as? Int, 2)
        XCTAssertEqual((object["rows"] as? [Any])?.count, 5)
    }

    func testJUnitGoldenIsWellFormedAndCountsFailures() throws {
        let xml = ReportFixture.report.renderJUnit()
        try assertGolden(xml, "report.junit.xml")
        let directory = try TemporaryDirectory()
        let path = directory.file("junit.xml")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        try assertWellFormedXML(path)
        let parsed = try Subprocess.tool("python3", ["-c", """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            suites = root.findall('testsuite')
            cases = suites[0].findall('testcase')
            failures = [c.find('failure') for c in cases if c.find('failure') is not None]
            print(root.tag, len(suites), suites[0].get('tests'), suites[0].get('failures'), len(cases), len(failures))
            print(failures[0].get('message'))
            """, path])
        XCTAssertEqual(parsed, """
            testsuites 1 5 1 5 1
            device-error:0x05: the device answered <invalid object> & "rejected" it

            """)
    }

    func testHostileTextIsEscapedEverywhere() throws {
        let hostile = "<script>alert('x')</script> & \"q\" \u{1}\u{7}\r\n]]>"
        let attempt = Attempt(claimID: "c", device: "<dev>&\"", serial: hostile, packageSHA256: "p", profile: "<p>",
                              station: "'s'", startedAt: LedgerFixtures.start, endedAt: LedgerFixtures.start.addingTimeInterval(1),
                              bytes: 1, result: .failed, errorKind: "<kind>", errorMessage: hostile, attemptNumber: 1)
        let report = BatchReport(attempts: [attempt], ledger: "sqlite:<x>.db", generatedAt: LedgerFixtures.start)

        let html = report.renderHTML()
        XCTAssertFalse(html.contains("<script"), "unescaped script tag")
        XCTAssertFalse(html.contains("<dev>"))
        XCTAssertFalse(html.contains("<kind>"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"))
        XCTAssertFalse(html.contains("\u{1}"))

        let directory = try TemporaryDirectory()
        let path = directory.file("junit.xml")
        try Data(report.renderJUnit().utf8).write(to: URL(fileURLWithPath: path))
        try assertWellFormedXML(path)
        let message = try Subprocess.tool("python3", ["-c", """
            import sys, xml.etree.ElementTree as ET
            case = ET.parse(sys.argv[1]).getroot().find('testsuite/testcase')
            print(repr(case.get('name')), repr(case.find('failure').get('message')))
            """, path])
        XCTAssertEqual(message, "'<dev>&\"' '<kind>: <script>alert(\\'x\\')</script> & \"q\" \u{FFFD}\u{FFFD}\\r\\n]]>'\n")

        let json = report.renderJSON()
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let row = try XCTUnwrap((object["rows"] as? [[String: Any]])?.first)
        XCTAssertEqual(row["last_error_message"] as? String, hostile)
    }

    func testTheHTMLPageIsSelfContainedWithFourCharts() throws {
        let html = ReportFixture.report.renderHTML()
        for id in ["chart-duration", "chart-throughput", "chart-timeline", "chart-causes"] {
            XCTAssertTrue(html.contains("<svg id=\"\(id)\""), id)
        }
        XCTAssertEqual(html.components(separatedBy: "<g class=\"bar ").count - 1, 5 + 5 + 3)
        // A device's time is all its attempts', not the deciding one's alone.
        XCTAssertTrue(html.contains("<g class=\"bar failed\"><title>C0:FF:EE:00:00:03: failed after 3 attempts, 35.75 s in all "
                                    + "(the deciding one 1.50 s)</title>"), html)
        XCTAssertEqual(html.components(separatedBy: "<rect class=\"span ").count - 1, 8, "one timeline bar per attempt")
        XCTAssertTrue(html.contains("1 of 5 devices failed, 1 cancelled; 3 succeeded"))
        // Nothing is fetched: no scripts, links, images, imports or URLs besides the SVG namespace.
        for forbidden in ["<script", "<link", "<img", "@import", "src=", "href=", "url("] {
            XCTAssertFalse(html.contains(forbidden), forbidden)
        }
        XCTAssertEqual(html.components(separatedBy: "http").count - 1, 4, "only the four xmlns attributes")
        try assertGolden(html, "report.html")
    }

    func testAnEmptyLedgerStillRenders() throws {
        let report = BatchReport(attempts: [], ledger: "sqlite:empty.db", generatedAt: LedgerFixtures.start)
        XCTAssertEqual(report.devices, 0)
        XCTAssertTrue(report.renderText().hasSuffix("result:     the ledger records no attempts yet\n"))
        XCTAssertTrue(report.renderHTML().contains(">no data</text>"))
        let object = try JSONSerialization.jsonObject(with: Data(report.renderJSON().utf8)) as? [String: Any]
        XCTAssertEqual(object?["devices"] as? Int, 0)
        XCTAssertTrue(object?["started_at"] is NSNull)
        XCTAssertTrue(report.renderJUnit().contains("<testsuite name=\"dfukit batch\" tests=\"0\" failures=\"0\""))
    }
}
