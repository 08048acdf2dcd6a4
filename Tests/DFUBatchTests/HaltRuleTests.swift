import DFUBatch
import DFUProfile
import XCTest

/// `failed >= K of last N`: parsed from its text (golden forms and every mistake with its
/// column), and evaluated over a line's outcomes at its boundaries.
final class HaltRuleTests: XCTestCase {
    func testGoldenForms() throws {
        for (text, failures, window) in [
            ("failed >= 3 of last 10", 3, 10),
            ("failed>=3 of last 10", 3, 10),
            ("  failed   >=  1   of   last   1  ", 1, 1),
            ("FAILED >= 2 OF LAST 5", 2, 5),
            ("failed ≥ 4 of last 4", 4, 4),
            ("failed >= 1 of last 1000", 1, 1000),
        ] {
            let rule = try HaltRule(parsing: text)
            XCTAssertEqual(rule.failures, failures, text)
            XCTAssertEqual(rule.window, window, text)
        }
        XCTAssertEqual(try HaltRule(parsing: "failed>=3 of last 10").description, "failed >= 3 of last 10")
        XCTAssertEqual(try HaltRule(failures: 3, window: 10), try HaltRule(parsing: "failed >= 3 of last 10"))
    }

    func testMistakesSayWhatAndWhere() {
        for (text, message, column) in [
            ("", "expected 'failed', found the end", 1),
            ("fails >= 3 of last 10", "expected 'failed', found 'fails'", 1),
            ("failed > 3 of last 10", "expected '>=' after 'failed'", 8),
            ("failed >= x of last 10", "expected a number (K), found 'x'", 11),
            ("failed >= 3 off last 10", "expected 'of', found 'off'", 13),
            ("failed >= 3 of 10", "expected 'last', found '10'", 16),
            ("failed >= 3 of last", "expected a number (N), found the end", 20),
            ("failed >= 3 of last 10 devices", "unexpected 'devices' after the rule", 24),
            ("failed >= 11 of last 10", "K must be in 1...N (10), not 11", 11),
            ("failed >= 0 of last 10", "K must be in 1...N (10), not 0", 11),
            ("failed >= 1 of last 0", "N (the window) must be in 1...1000, not 0", 21),
            ("failed >= 3 of last 1001", "N (the window) must be in 1...1000, not 1001", 21),
        ] {
            XCTAssertThrowsError(try HaltRule(parsing: text), text) { error in
                let error = error as? HaltRuleError
                XCTAssertEqual(error?.message, message, text)
                XCTAssertEqual(error?.column, column, text)
            }
        }
        XCTAssertEqual(HaltRuleError("expected 'of', found 'off'", column: 13).description,
                       "expected 'of', found 'off' at column 13 (the rule is 'failed >= K of last N', e.g. 'failed >= 3 of last 10')")
        XCTAssertThrowsError(try HaltRule(failures: 4, window: 3))
    }

    func testEvaluationAtItsBoundaries() throws {
        let rule = try HaltRule(parsing: "failed >= 3 of last 5")
        let (f, s) = (true, false)
        XCTAssertFalse(rule.holds(over: []))
        XCTAssertFalse(rule.holds(over: [f, f]), "fewer than K failures so far")
        XCTAssertTrue(rule.holds(over: [f, f, f]), "fewer than N attempts so far: they count as they are")
        XCTAssertTrue(rule.holds(over: [s, f, s, f, f]), "exactly K of N")
        XCTAssertFalse(rule.holds(over: [s, f, s, s, f]), "K - 1 of N")
        XCTAssertFalse(rule.holds(over: [f, f, s, s, s, f, s]), "older failures fall out of the window")
        XCTAssertTrue(rule.holds(over: [s, s, s, f, f, f]), "the last N, not the first")
        let all = try HaltRule(parsing: "failed >= 4 of last 4")
        XCTAssertTrue(all.holds(over: [s, f, f, f, f]), "K = N: the last N all failed")
        XCTAssertFalse(all.holds(over: [f, f, f, s]))
        // Two stations' outcomes, interleaved as the ledger recorded them, count together.
        let stationA = [f, s, f], stationB = [s, f]
        XCTAssertTrue(rule.holds(over: [stationA[0], stationB[0], stationA[1], stationB[1], stationA[2]]))
        XCTAssertFalse(rule.holds(over: stationA), "one station alone has only 2 failures")
    }

    func testLineFileKeys() throws {
        let line = try LineFileLoader.load(text: """
            profile: vendor-ctrlpt
            halt-when: failed >= 3 of last 10
            quarantine-after: 2
            when-halted: exit
            """, path: "lines/east-1.yaml")
        XCTAssertEqual(line.haltWhen, try HaltRule(failures: 3, window: 10))
        XCTAssertEqual(line.quarantineAfter, 2)
        XCTAssertEqual(line.whenHalted, .exit)
        XCTAssertEqual(line.line, "east-1", "the line is named by its file unless 'line:' names it")
        let named = try LineFileLoader.load(text: "line: east\n", path: "east-1.yaml")
        XCTAssertEqual(named.line, "east")
    }

    func testALineFilesMalformedRuleIsReportedAtItsColumn() {
        XCTAssertThrowsError(try LineFileLoader.load(text: """
            profile: vendor-ctrlpt
            halt-when: failed >= 3 off last 10
            when-halted: sometimes
            quarantine-after: 0
            """, path: "line.yaml")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("line.yaml:2:24: error: 'halt-when': expected 'of', found 'off' (the rule is "
                                        + "'failed >= K of last N', e.g. 'failed >= 3 of last 10')"), text)
            XCTAssertTrue(text.contains("line.yaml:3:14: error: 'when-halted' must be wait or exit"), text)
            XCTAssertTrue(text.contains("line.yaml:4:19: error: 'quarantine-after' must be an integer in 1...1000"), text)
        }
    }
}
