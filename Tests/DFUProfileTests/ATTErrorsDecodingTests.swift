import DFUProfile
import XCTest

/// `att-errors` on a characteristic names a code table for the ATT errors a device answers
/// writes with (Silicon Labs' AppLoader).
final class ATTErrorsDecodingTests: XCTestCase {
    private static let base = """
        profile: att-errors
        characteristics:
          control: { service: FEED, uuid: F001, properties: [write], att-errors: refusals }
          data: { service: FEED, uuid: F002, properties: [write-without-response] }
        codes:
          refusals:
            0x80: { name: crc-error, message: "CRC check failed" }
        commands:
          end:
            characteristic: control
            request: [{ type: u8, value: 0x03 }]
        procedure:
          - send: end
        """

    func testItNamesACodeTable() throws {
        let profile = try ProfileLoader.load(text: Self.base, path: "att.yaml")
        XCTAssertEqual(profile.characteristic(named: "control")?.attErrors, "refusals")
        XCTAssertNil(profile.characteristic(named: "data")?.attErrors)
    }

    func testAnUnknownTableIsReportedAtItsPlace() {
        let text = Self.base.replacingOccurrences(of: "att-errors: refusals", with: "att-errors: refusal")
        let errors = loadErrors(text)
        let place = position(of: "att-errors: refusal", in: text)
        XCTAssertTrue(errors.contains { $0.hasPrefix("mini.yaml:\(place.line):") && $0.contains("unknown code table 'refusal'; did you mean 'refusals'?") },
                      "\(errors)")
    }
}
