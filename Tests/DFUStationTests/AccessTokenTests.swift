import DFUStation
import Foundation
import XCTest

/// The token: compared by digest, read from a file's first line, never empty.
final class AccessTokenTests: XCTestCase {
    func testAcceptsOnlyTheSameToken() throws {
        let token = try AccessToken("  correct horse \n")
        XCTAssertTrue(token.accepts("correct horse"))
        for other in ["correct hors", "correct horse ", "correct horsf", "Correct horse", "", "correct horse battery"] {
            XCTAssertFalse(token.accepts(other), other)
        }
        XCTAssertEqual("\(token)", "AccessToken(set)", "the description never shows the token")
    }

    func testReadsTheBearerScheme() throws {
        let token = try AccessToken("abc")
        XCTAssertTrue(token.accepts(authorization: "Bearer abc"))
        XCTAssertTrue(token.accepts(authorization: "BEARER   abc  "))
        XCTAssertFalse(token.accepts(authorization: nil))
        XCTAssertFalse(token.accepts(authorization: "abc"))
        XCTAssertFalse(token.accepts(authorization: "Basic abc"))
        XCTAssertFalse(token.accepts(authorization: "Bearerabc"))
    }

    func testAnEmptyTokenIsRefused() {
        for text in ["", "   ", "\n\t"] {
            XCTAssertThrowsError(try AccessToken(text)) { error in
                XCTAssertEqual((error as? DashboardServerError)?.kind, .invalidToken)
            }
        }
    }

    func testTheTokenFileGivesItsFirstLineTrimmed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfukit-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token").path
        try " line-token \nsecond line\n".write(toFile: file, atomically: true, encoding: .utf8)
        let token = try AccessToken(contentsOfFile: file)
        XCTAssertTrue(token.accepts("line-token"))
        XCTAssertFalse(token.accepts("second line"))

        try "\nline-token\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try AccessToken(contentsOfFile: file)) { error in
            XCTAssertEqual((error as? DashboardServerError)?.kind, .invalidToken)
            XCTAssertTrue("\(error)".hasPrefix("the token file \(file) has no token on its first line"), "\(error)")
        }
        let missing = directory.appendingPathComponent("missing").path
        XCTAssertThrowsError(try AccessToken(contentsOfFile: missing)) { error in
            XCTAssertEqual((error as? DashboardServerError)?.kind, .unreadableTokenFile)
            XCTAssertTrue("\(error)".hasPrefix("cannot read the token file \(missing): "), "\(error)")
        }
    }
}
