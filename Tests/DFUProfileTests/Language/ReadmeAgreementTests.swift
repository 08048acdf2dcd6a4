import DFUProfile
import Foundation
import XCTest

/// profiles/README.md and the loader never disagree: every key the loader accepts (read from
/// the loader itself through `ProfileLanguage`, so keys added to the decoder are checked too) is
/// in the README's table for its mapping, with "required" exactly when the loader requires it;
/// every key table of the README belongs to a mapping the loader reads and lists no key it
/// rejects; every step kind has its section and every expression function its row.
final class ReadmeAgreementTests: XCTestCase {
    private static let readmePath = ProfileLibrary.sourceTreeProfilesDirectory + "/README.md"
    private let language = ProfileLanguage.current

    private func readme() throws -> ReadmeTables {
        ReadmeTables(markdown: try String(contentsOfFile: Self.readmePath, encoding: .utf8))
    }

    /// Contexts documented by a key table (a step without keys of its own needs only a heading).
    private var tabled: [ProfileLanguage.Context] {
        language.contexts.filter { context in
            !(context.stepKind != nil && context.keys.map(\.name) == [context.stepKind])
        }
    }

    func testEveryKeyTheLoaderAcceptsIsDocumentedWithItsRequiredness() throws {
        let readme = try readme()
        for context in tabled {
            let place = "profiles/README.md, the key table \(context.table + 1) under '\(context.heading)'"
            guard let table = readme.keyTable(heading: context.heading, index: context.table) else {
                XCTFail("\(place) is missing: the loader's '\(context.id)' takes "
                        + context.keys.map(\.name).joined(separator: ", "))
                continue
            }
            let documented = Set(table.firstColumnCodes)
            let accepted = Set(context.keys.map(\.name))
            XCTAssertEqual(accepted.subtracting(documented).sorted(), [],
                           "the loader accepts these keys in '\(context.id)' but \(place) does not list them")
            XCTAssertEqual(documented.subtracting(accepted).sorted(), [],
                           "\(place) lists these keys the loader rejects in '\(context.id)'")
            let documentedRequired = Set(table.rows.filter { $0.count > 2 && $0[2] == "required" }
                .compactMap { $0.first.flatMap(ReadmeTables.codes)?.first })
            let required = Set(context.keys.filter(\.required).map(\.name))
            XCTAssertEqual(documentedRequired.sorted(), required.sorted(),
                           "\(place): the keys marked 'required' differ from those the loader requires")
        }
    }

    func testEveryKeyTableOfTheReadmeBelongsToAMappingTheLoaderReads() throws {
        for table in try readme().keyTables {
            XCTAssertTrue(tabled.contains { $0.heading == table.heading && $0.table == table.index },
                          "profiles/README.md: the key table \(table.index + 1) under '\(table.heading)' ("
                          + table.firstColumnCodes.joined(separator: ", ") + ") documents no mapping the loader reads")
        }
    }

    func testEveryStepKindHasItsSection() throws {
        let headings = try readme().headings
        XCTAssertFalse(language.stepKinds.isEmpty)
        for kind in language.stepKinds {
            XCTAssertTrue(headings.contains { $0.components(separatedBy: CharacterSet(charactersIn: ", ")).contains(kind) },
                          "profiles/README.md has no section for the step '\(kind)'")
        }
    }

    func testEveryExpressionFunctionIsDocumentedWithItsArguments() throws {
        let table = try XCTUnwrap(try readme().tables.first { $0.header.first == "function" })
        var documented: [String: String] = [:]
        for row in table.rows where row.count > 1 {
            for code in ReadmeTables.codes(row[0]) {
                guard let open = code.firstIndex(of: "(") else { continue }
                documented[String(code[..<open])] = row[1]
            }
        }
        let names = language.functions.map(\.name)
        XCTAssertEqual(Set(names).subtracting(documented.keys).sorted(), [],
                       "expression functions missing from profiles/README.md")
        XCTAssertEqual(Set(documented.keys).subtracting(names).sorted(), [],
                       "profiles/README.md documents functions the loader does not know")
        for function in language.functions {
            guard let arguments = documented[function.name] else { continue }
            let counts = arguments.split(separator: " ").compactMap { Int($0) }
            let arity = function.arity
            let expected = arity.lowerBound == arity.upperBound ? [arity.lowerBound] : [arity.lowerBound, arity.upperBound]
            XCTAssertEqual(counts, expected, "profiles/README.md: the arguments of '\(function.name)' say '\(arguments)'")
        }
    }

    func testTheParserReadsTheTablesItChecks() throws {
        let readme = try readme()
        XCTAssertEqual(readme.keyTable(heading: "framings", index: 0)?.firstColumnCodes.first, "header-size")
        XCTAssertEqual(readme.keyTable(heading: "stream", index: 1)?.firstColumnCodes.first, "every")
        XCTAssertEqual(ReadmeTables.cells("| 1 | `\\|\\|` |"), ["1", "`||`"])
    }
}
