import DFUBytes
@testable import DFUEngine
import DFUProfile
import XCTest

/// `NotificationWatch`, event by event: a watched notification whose status fails is a refusal
/// (named, retryable or not as its code says), a successful one is heard and nothing more, and
/// anything else is not its business.
final class NotificationWatchTests: XCTestCase {
    private static let profileText = """
        profile: watch
        characteristics:
          ota: { service: FEED, uuid: F001, properties: [write-without-response, notify] }
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

    private func makeWatch() throws -> NotificationWatch {
        let profile = try ProfileLoader.load(text: Self.profileText, path: "watch.yaml")
        let message = try XCTUnwrap(profile.notifications["ota_result"])
        let candidate = NotificationWait.Candidate(name: "ota_result", message: message, handle: 3, framing: nil)
        return try XCTUnwrap(NotificationWatch(candidates: [candidate], scope: Scope([:]), codeTables: profile.codeTables))
    }

    func testNothingWatchedIsNoWatch() {
        XCTAssertNil(NotificationWatch(candidates: [], scope: Scope([:]), codeTables: [:]))
    }

    func testAFinalRefusalIsNamedAndNotRetryable() throws {
        var watch = try makeWatch()
        guard case let .refusal(status) = watch.hear([0x06, 0xFF, 0x0B, 0x00], from: 3) else {
            return XCTFail("a refusal")
        }
        XCTAssertEqual(status.code, 0x0B)
        XCTAssertEqual(status.name, "OTA_FW_SIZE_ERR")
        XCTAssertEqual(status.notification, "ota_result")
        XCTAssertFalse(status.retryable)
        XCTAssertEqual(status.description, "status 0xB (OTA_FW_SIZE_ERR): the size is refused")
    }

    func testARetryableRefusalStaysRetryable() throws {
        var watch = try makeWatch()
        guard case let .refusal(status) = watch.hear([0x06, 0xFF, 0x03, 0x00], from: 3) else {
            return XCTFail("a refusal")
        }
        XCTAssertTrue(status.retryable)
        XCTAssertTrue(ExchangeFailure.deviceStatus(status).isRetryable)
        var final = status
        final.retryable = false
        XCTAssertFalse(ExchangeFailure.deviceStatus(final).isRetryable)
    }

    func testSuccessIsHeardAndIsNoRefusal() throws {
        var watch = try makeWatch()
        XCTAssertEqual(watch.hear([0x06, 0xFF, 0x00, 0x00], from: 3), .success("ota_result"))
    }

    func testOtherMessagesAndHandlesAreNotItsBusiness() throws {
        var watch = try makeWatch()
        XCTAssertEqual(watch.hear([0x05, 0xFF, 0x01, 0x00, 0x01], from: 3), .other, "a version response")
        XCTAssertEqual(watch.hear([0x06, 0xFF, 0x0B, 0x00], from: 9), .other, "another characteristic")
        XCTAssertEqual(watch.hear([0x06, 0xFF], from: 3), .other, "too short")
        XCTAssertEqual(watch.hear([0x06, 0xFF, 0x0B], from: 3), .refusal({
            var status = DeviceStatus(code: 0x0B, name: "OTA_FW_SIZE_ERR", message: "the size is refused")
            status.retryable = false
            status.notification = "ota_result"
            return status
        }()), "a failure may end after its status byte")
    }
}
