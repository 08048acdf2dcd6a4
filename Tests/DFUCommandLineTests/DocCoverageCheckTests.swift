import Foundation
import XCTest

/// scripts/check-doc-coverage.py, the check `make docs` runs, over tiny symbol graphs written here:
/// it must fail on an undocumented public symbol, naming its file, line and name, and pass when the
/// only undocumented symbols are synthesized or inherit their requirement's doc comment.
final class DocCoverageCheckTests: XCTestCase {
    private let script = DFUKitBinary.repositoryRoot.appendingPathComponent("scripts/check-doc-coverage.py").path

    /// One symbol of a symbol graph, as swift-symbolgraph-extract writes it (lines counted from 0).
    private func symbol(_ path: [String], kind: String = "swift.struct", precise: String? = nil,
                        access: String = "public", line: Int? = 3, doc: String? = nil,
                        docModule: String? = nil) -> [String: Any] {
        var symbol: [String: Any] = [
            "identifier": ["precise": precise ?? "s:5Fixture" + path.joined(), "interfaceLanguage": "swift"],
            "kind": ["identifier": kind, "displayName": kind == "swift.struct" ? "Structure" : "Instance Method"],
            "pathComponents": path,
            "names": ["title": path.last!],
            "accessLevel": access,
        ]
        if let line { symbol["location"] = ["uri": "file:///src/Sources/Fixture/Thing.swift",
                                            "position": ["line": line, "character": 14]] }
        if let doc {
            var comment: [String: Any] = ["lines": [["text": doc]]]
            if let docModule { comment["module"] = docModule }
            symbol["docComment"] = comment
        }
        return symbol
    }

    private func check(_ symbols: [[String: Any]]) throws -> ProcessResult {
        let directory = try TemporaryDirectory(prefix: "doc-coverage")
        let graph: [String: Any] = ["metadata": ["formatVersion": ["major": 0, "minor": 6, "patch": 0]],
                                    "module": ["name": "Fixture"], "symbols": symbols, "relationships": []]
        try JSONSerialization.data(withJSONObject: graph).write(to: URL(fileURLWithPath: directory.file("Fixture.symbols.json")))
        return try withExtendedLifetime(directory) {
            try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, directory.path, "--module", "Fixture"])
        }
    }

    func testFailsNamingFileLineAndSymbolOfAnUndocumentedPublicSymbol() throws {
        let result = try check([
            symbol(["Thing"], doc: "A documented thing."),
            symbol(["Thing", "frobnicate()"], kind: "swift.method", line: 9),
            symbol(["Thing", "hidden()"], kind: "swift.method", access: "package", line: 11),
        ])
        XCTAssertEqual(result.status, 1, result.transcript)
        XCTAssertEqual(result.stdoutLines,
                       ["/src/Sources/Fixture/Thing.swift:10: error: public instance method Fixture.Thing.frobnicate() has no doc comment"],
                       result.transcript)
        XCTAssertTrue(result.stderr.contains("1 public symbol(s) without a doc comment in Fixture"), result.transcript)
    }

    func testAnEmptyDocCommentIsNotDocumentation() throws {
        let result = try check([symbol(["Thing"], doc: "   ")])
        XCTAssertEqual(result.status, 1, result.transcript)
        XCTAssertTrue(result.stdout.contains("Thing.swift:4: error: public structure Fixture.Thing"), result.transcript)
    }

    func testPassesWhenOnlySynthesizedOrInheritedSymbolsLackTheirOwnComment() throws {
        let result = try check([
            symbol(["Thing"], doc: "A documented thing."),
            // `==` written in the source without a comment: the graph carries Equatable's text.
            symbol(["Thing", "==(_:_:)"], kind: "swift.func.op", line: 7, doc: "Returns a Boolean value...", docModule: "Swift"),
            // A default implementation from a protocol extension.
            symbol(["Thing", "!=(_:_:)"], kind: "swift.func.op", precise: "s:SQsE2neoiySbx_xtFZ::SYNTHESIZED::s:5Fixture5ThingV"),
            // The compiler's init(from:): no source location.
            symbol(["Thing", "init(from:)"], kind: "swift.init", line: nil),
        ])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertTrue(result.stdout.hasPrefix("every public symbol documented in Fixture"), result.transcript)
    }
}
