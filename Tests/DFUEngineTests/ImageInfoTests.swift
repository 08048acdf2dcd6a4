@testable import DFUEngine
import DFUProfile
import XCTest

/// `image.info`: numbers an image file's own format read (a GBL's application version), for
/// profiles to compare with what a device reports.
final class ImageInfoTests: XCTestCase {
    private func evaluate(_ text: String, info: [String: UInt64]) throws -> Value {
        var image = FlashImage(name: "application", version: "0x00010002", data: [1, 2, 3])
        image.info = info
        return try ExpressionEvaluator.evaluate(InlineProfiles.expression(text),
                                                in: Scope(["image": image.record(index: 0, count: 1)]))
    }

    func testInfoIsARecordOfIntegers() throws {
        let info: [String: UInt64] = ["app_version": 0x0001_0002, "signed": 0]
        XCTAssertEqual(try evaluate("image.info.app_version", info: info), .integer(0x0001_0002))
        XCTAssertEqual(try evaluate("get(image.info, 'app_version', 0) == 0x00010002", info: info), .boolean(true))
        XCTAssertEqual(try evaluate("get(image.info, 'app_type', 7)", info: info), .integer(7), "absent: the default")
        XCTAssertEqual(try evaluate("get(image.info, 'app_version', 9)", info: [:]), .integer(9), "other packages: empty")
    }

    func testProfilesMayNameItsMembersButNotOthers() throws {
        let good = try InlineProfiles.profile(procedure: """
              - check: "image.info.app_version == get(image.info, 'app_version', 0)"

            """)
        XCTAssertEqual(good.procedure.count, 1)
        XCTAssertThrowsError(try InlineProfiles.profile(procedure: """
              - check: image.infos.app_version == 1

            """)) { error in
            XCTAssertTrue("\(error)".contains("'image' has no field 'infos'"), "\(error)")
        }
    }
}
