import DFUProfile
import XCTest

/// The checks a line file's expressions get before a device is touched: names, members, kinds.
final class ExpressionTypeCheckerTests: XCTestCase {
    private let checker = ExpressionTypeChecker(roots: [
        "info": .record(["status": .integer, "size": .integer, "sha256": .bytes]),
        "image": ExpressionTypeChecker.imageRecord,
        "param": .record(["prn": .integer, "version": .text]),
        "list": .record(["body": .record(nil)]),
    ])

    private func problems(_ text: String, condition: Bool = true) throws -> [String] {
        let (expression, references) = try ExpressionParser.parseWithReferences(
            text, at: SourceLocation(file: "line.yaml", line: 7, column: 20))
        return checker.problems(in: expression, references: references, condition: condition).map(\.description)
    }

    func testWellTypedConditionsPass() throws {
        for text in ["info.sha256 == image.sha256", "info.size == image.size && info.status == 0",
                     "image.version == '1.2.0'", "param.prn < 20", "len(info.sha256) == 32",
                     "crc32(slice(image.data, 0, 4)) != 0", "get(list.body, 'version', '') == param.version",
                     "!image.last || info.size > 0"] {
            XCTAssertEqual(try problems(text), [], text)
        }
    }

    func testAnUnknownFieldIsReportedAtItsColumnWithASuggestion() throws {
        XCTAssertEqual(try problems("info.sha265 == image.sha256"), [
            "line.yaml:7:20: error: in 'info.sha265 == image.sha256': 'info' has no field 'sha265'; did you mean 'sha256'?",
        ])
        XCTAssertEqual(try problems("info.size == imgae.size"), [
            "line.yaml:7:33: error: in 'info.size == imgae.size': unknown name 'imgae'; did you mean 'image'?",
        ])
    }

    func testComparingDifferentKindsIsAlwaysFalseAndRefused() throws {
        XCTAssertEqual(try problems("info.sha256 == '1.2.0'"), [
            "line.yaml:7:20: error: in 'info.sha256 == '1.2.0'': '==' compares bytes with text: they are never equal",
        ])
    }

    func testOperatorsAndFunctionsGetTheirKinds() throws {
        XCTAssertEqual(try problems("info.sha256 > 3").count, 1)
        XCTAssertEqual(try problems("info.size && true").count, 1)
        XCTAssertEqual(try problems("len(info.size) == 4"), [
            "line.yaml:7:20: error: in 'len(info.size) == 4': 'len' takes bytes as argument 1, found an integer",
        ])
        XCTAssertEqual(try problems("info.size.low == 1"), [
            "line.yaml:7:20: error: in 'info.size.low == 1': 'info.size' is an integer: it has no member 'low'",
        ])
    }

    func testAConditionMustBeTrueOrFalse() throws {
        XCTAssertEqual(try problems("info.size + 1"), [
            "line.yaml:7:20: error: 'info.size + 1' is an integer, not a condition (true or false); compare it, e.g. with ==",
        ])
        XCTAssertEqual(try problems("info.size + 1", condition: false), [])
    }

    /// Every `image` member the profile checker accepts has a kind here.
    func testTheImageRecordCoversTheEngineMembers() throws {
        guard case .record(let members?) = ExpressionTypeChecker.imageRecord else { return XCTFail("not a record") }
        let profile = try ProfileLoader.load(path: vendorProfilePath)
        XCTAssertTrue(Set(profile.imageMembersUsed.keys).isSubset(of: Set(members.keys)), "\(profile.imageMembersUsed.keys)")
        XCTAssertEqual(Set(members.keys), ["data", "size", "crc32", "sha256", "name", "version", "init_packet", "index",
                                           "count", "last", "sd_size", "bl_size", "app_size", "hash", "info"])
    }
}
