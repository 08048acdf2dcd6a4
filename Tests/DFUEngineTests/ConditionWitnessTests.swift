import DFUEngine
import DFUProfile
import XCTest

/// What a failed condition says it saw.
final class ConditionWitnessTests: XCTestCase {
    private let scope = Scope([
        "info": .record(["version": .string("1.1.0"), "sha256": .bytes(Array(0..<32)), "size": .integer(6000)]),
        "image": .record(["version": .string("1.2.0"), "data": .bytes(Array(repeating: 1, count: 100))]),
    ])

    private func witness(_ text: String, excluding: Set<String> = []) throws -> String? {
        ConditionWitness.values(of: try Expression(parsing: text, at: SourceLocation(file: "l", line: 1, column: 1)),
                                in: scope, excluding: excluding)
    }

    func testEveryPathIsShownOnceInTheOrderWritten() throws {
        XCTAssertEqual(try witness("info.version == image.version || info.version == '1.2.0'"),
                       "info.version = '1.1.0', image.version = '1.2.0'")
        XCTAssertEqual(try witness("info.size == 1"), "info.size = 6000 (0x1770)")
    }

    func testADigestIsShownWholeAndLongBytesShortened() throws {
        XCTAssertEqual(try witness("info.sha256 == sha256(image.data)"),
                       "info.sha256 = " + (0..<32).map { String(format: "%02x", $0) }.joined()
                           + ", image.data = 100 bytes 01010101010101010101010101010101...")
    }

    func testExcludedRootsAndUndefinedPaths() throws {
        XCTAssertEqual(try witness("info.version == image.version", excluding: ["image"]), "info.version = '1.1.0'")
        XCTAssertNil(try witness("image.version == '1'", excluding: ["image"]))
        XCTAssertEqual(try witness("info.missing == 1"), "info.missing = (not defined)")
    }
}
