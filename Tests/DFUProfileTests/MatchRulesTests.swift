import DFUProfile
import Foundation
import XCTest

/// `match:`: which advertisers a profile applies to. Every shipped profile has a rule (one
/// without would pick any device nearby); manufacturer data is matched by company and prefix.
final class MatchRulesTests: XCTestCase {
    private func profile(match: String) -> String {
        """
        profile: mini
        \(match)
        characteristics:
          control: { service: FEED, uuid: F001, properties: [write] }
        commands:
          end: { characteristic: control, request: [{ type: u8, value: 0x03 }] }
        procedure:
          - send: end
        """
    }

    func testEveryShippedProfileHasAMatchRule() throws {
        let directory = repositoryRoot.appendingPathComponent("profiles")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for file in files {
            let profile = try ProfileLoader.load(path: directory.appendingPathComponent(file).path)
            // A profile without one runs over serial only, where the port names the device.
            XCTAssertFalse(profile.match.isEmpty && profile.links.isEmpty,
                           "\(file) has no match rule: it would pick any device in range")
        }
    }

    func testSilabsOTAMatchesTheOTAService() throws {
        let profile = try ProfileLoader.load(path: repositoryRoot.appendingPathComponent("profiles/silabs-ota.yaml").path)
        XCTAssertEqual(profile.match.services.map(\.description), ["1D14D6EE-FD63-4FA1-BFA4-8F47B42119F0"])
    }

    func testManufacturerRules() throws {
        let both = try ProfileLoader.load(text: profile(match: "match: { manufacturer: 0x02FF, manufacturer-data: 'aa:0b' }"),
                                          path: "mini.yaml")
        XCTAssertEqual(both.match.manufacturer, ManufacturerMatch(companyID: 0x02FF, dataPrefix: [0xAA, 0x0B]))
        XCTAssertFalse(both.match.isEmpty)
        let company = try ProfileLoader.load(text: profile(match: "match: { manufacturer: 89 }"), path: "mini.yaml")
        XCTAssertEqual(company.match.manufacturer, ManufacturerMatch(companyID: 89))
        let none = try ProfileLoader.load(text: profile(match: ""), path: "mini.yaml")
        XCTAssertTrue(none.match.isEmpty)
    }

    func testManufacturerMistakesAreReportedAtTheirPlace() {
        let orphan = profile(match: "match: { manufacturer-data: '01' }")
        let at = position(of: "'01'", in: orphan)
        XCTAssertEqual(loadErrors(orphan), ["mini.yaml:\(at.line):\(at.column): error: 'match.manufacturer-data' needs "
                                            + "'match.manufacturer' (the company identifier the data follows)"])
        let badHex = profile(match: "match: { manufacturer: 1, manufacturer-data: 'xyz' }")
        XCTAssertTrue(loadErrors(badHex).first?.contains("'match.manufacturer-data' must be hex bytes") ?? false)
        let tooBig = profile(match: "match: { manufacturer: 0x10000 }")
        XCTAssertTrue(loadErrors(tooBig).first?.contains("'match.manufacturer' must be in 0...65535") ?? false,
                      "\(loadErrors(tooBig))")
    }
}
