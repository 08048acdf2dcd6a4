import DFUProfile
import Foundation
import XCTest

/// The top-level `security` and `signing-key` keys.
final class SecurityAndSigningKeyTests: XCTestCase {
    private var vendorText: String {
        get throws {
            let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("profiles/vendor-ctrlpt.yaml").path
            return try String(contentsOfFile: path, encoding: .utf8)
        }
    }

    func testSecurityAndSigningKeyAreRead() throws {
        let text = try vendorText + "\nsecurity: medium\nsigning-key: keys/line.pem\n"
        let profile = try ProfileLoader.load(text: text, path: "/etc/dfukit/vendor.yaml")
        XCTAssertEqual(profile.security, "medium")
        XCTAssertEqual(profile.signingKey, "/etc/dfukit/keys/line.pem", "relative to the profile file")
    }

    func testAnUnknownSecurityLevelIsAnErrorAtItsPlace() throws {
        let base = try vendorText
        let line = base.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        XCTAssertThrowsError(try ProfileLoader.load(text: base + "\nsecurity: paranoid\n", path: "p.yaml")) { error in
            XCTAssertTrue("\(error)".contains("p.yaml:\(line):11: error: 'security' must be one of low, medium, high, fips"),
                          "\(error)")
        }
    }
}
