import DFUProfile
import XCTest

/// `retryable: false` on a code (a refusal a retry cannot change) and `watch: true` on a
/// notification (a result the device sends on its own, heard whenever it arrives).
final class RefusalDecodingTests: XCTestCase {
    private static let base = """
        profile: refusals
        characteristics:
          ota: { service: FEED, uuid: F001, properties: [write-without-response] }
        codes:
          ota-result:
            0x00: OTA_SUCCESS
            0x03: { name: OTA_DATA_CRC_ERR, message: "a packet arrived damaged" }
            0x0B: { name: OTA_FW_SIZE_ERR, message: "the size is refused", retryable: false }
        notifications:
          ota_result:
            characteristic: ota
            watch: true
            fields:
              - { type: u16, value: 0xFF06 }
              - { name: result, type: u8 }
              - { type: u8 }
            status: { field: result, success: [0x00], codes: ota-result }
        commands:
          start:
            characteristic: ota
            request: [{ type: u16, value: 0xFF01 }]
        procedure:
          - send: start
        """

    func testCodesAreRetryableUnlessMarked() throws {
        let profile = try ProfileLoader.load(text: Self.base, path: "refusals.yaml")
        let table = try XCTUnwrap(profile.codeTables["ota-result"])
        XCTAssertEqual(table.entries[0x00]?.retryable, true, "a bare name")
        XCTAssertEqual(table.entries[0x03]?.retryable, true, "a mapping without the key")
        XCTAssertEqual(table.entries[0x0B]?.retryable, false)
        XCTAssertEqual(profile.notifications["ota_result"]?.watched, true)
    }

    func testNotificationsAreNotWatchedByDefault() throws {
        let profile = try ProfileLoader.load(text: Self.base.replacingOccurrences(of: "    watch: true\n", with: ""),
                                             path: "refusals.yaml")
        XCTAssertEqual(profile.notifications["ota_result"]?.watched, false)
    }

    func testABadRetryableValueIsReportedAtItsPlace() {
        let text = Self.base.replacingOccurrences(of: "retryable: false", with: "retryable: never")
        let errors = loadErrors(text)
        let place = position(of: "never", in: text)
        XCTAssertTrue(errors.contains { $0.hasPrefix("mini.yaml:\(place.line):\(place.column): error:")
                && $0.contains("'retryable' of code 0x0B") && $0.contains("true or false") }, "\(errors)")
    }

    func testAnUnknownKeyOfACodeSuggestsRetryable() {
        let text = Self.base.replacingOccurrences(of: "retryable: false", with: "retriable: false")
        let errors = loadErrors(text)
        XCTAssertTrue(errors.contains { $0.contains("retriable") && $0.contains("retryable") }, "\(errors)")
    }

    func testAWatchedNotificationNeedsAStatus() {
        let text = Self.base.replacingOccurrences(of: "    status: { field: result, success: [0x00], codes: ota-result }\n",
                                                  with: "")
        let errors = loadErrors(text)
        let place = position(of: "watch: true", in: text)
        XCTAssertTrue(errors.contains { $0.hasPrefix("mini.yaml:\(place.line):")
                && $0.contains("notification 'ota_result' is watched but has no 'status'") }, "\(errors)")
    }

    func testABadWatchValueIsReportedAtItsPlace() {
        let text = Self.base.replacingOccurrences(of: "watch: true", with: "watch: always")
        let errors = loadErrors(text)
        let place = position(of: "always", in: text)
        XCTAssertTrue(errors.contains { $0.hasPrefix("mini.yaml:\(place.line):\(place.column): error:")
                && $0.contains("'watch' of notification 'ota_result'") }, "\(errors)")
    }
}
