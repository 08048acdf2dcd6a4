import DFUBytes
@testable import DFUEngine
import DFUGATT
import DFUProfile
import XCTest

/// `CommandExchange` driven by hand, event by event, as the driver would over a link.
final class CommandExchangeTests: XCTestCase {
    private let vendorFraming = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little,
                                                   maximumPayloadLength: 8192)
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    private func vendorSetup(_ command: String, writes: [[UInt8]], attempts: Int = 1) throws -> CommandExchange.Setup {
        let profile = try EngineTestSupport.vendorProfile()
        return CommandExchange.Setup(command: try XCTUnwrap(profile.commands[command]), writes: writes,
                                     target: control, responseHandle: 3,
                                     responseFraming: vendorFraming, timeout: .seconds(5), attempts: attempts,
                                     scope: Scope(), codeTables: profile.codeTables)
    }

    /// Characteristics as a connection binds them: the control point's value handle is 3.
    private static func target(_ role: String, handle: UInt16) -> WriteTarget {
        WriteTarget(role: role, characteristic: GATTCharacteristic(service: BluetoothUUID(uuid16: 0xFE59),
                                                                   uuid: BluetoothUUID(uuid16: handle), valueHandle: handle,
                                                                   properties: [.write, .notify]),
                    type: .withResponse)
    }
    private let control = target("control", handle: 3)
    private let packet = target("packet", handle: 6)

    /// The start frame for "hello" in three writes at ATT_MTU 23.
    private var startWrites: [[UInt8]] {
        let frame: [UInt8] = [0x29, 0x00, 0x01, 0x05, 0x00, 0x00, 0x00, 0x86, 0xA6, 0x10, 0x36] + InlineProfiles.helloSHA256
        return [Array(frame[0..<20]), Array(frame[20..<40]), Array(frame[40...])]
    }

    private func failure(_ action: CommandExchange.Action, file: StaticString = #filePath, line: UInt = #line) -> ExchangeFailure? {
        guard case let .failed(failure) = action else {
            XCTFail("expected a failure, got \(action)", file: file, line: line)
            return nil
        }
        return failure
    }

    func testSegmentsGoOutOneByOneThenTheResponseIsAwaited() throws {
        let writes = startWrites
        var exchange = CommandExchange(try vendorSetup("start", writes: writes))
        XCTAssertEqual(exchange.handle(.begin(now: ms(0))), .write(writes[0], to: control))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(30))), .write(writes[1], to: control))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(60))), .write(writes[2], to: control))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(90))), .awaitNotification(until: ms(5_090)))
        // The answer frame 04 00 81 00 00 10, split at odd places.
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x04], now: ms(120))),
                       .awaitNotification(until: ms(5_090)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x00, 0x81, 0x00], now: ms(135))),
                       .awaitNotification(until: ms(5_090)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x00, 0x10], now: ms(150))),
                       .completed(["status": .integer(0), "max_chunk": .integer(4096)]))
    }

    func testNotificationsFromOtherCharacteristicsAreIgnored() throws {
        var exchange = CommandExchange(try vendorSetup("activate", writes: [[0x01, 0x00], [0x04]]))
        _ = exchange.handle(.begin(now: .zero))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(30))), .write([0x04], to: control))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(60))), .awaitNotification(until: ms(5_060)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 6, value: [0x02, 0x00, 0x84, 0x00], now: ms(70))),
                       .awaitNotification(until: ms(5_060)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x02, 0x00, 0x84, 0x00], now: ms(90))),
                       .completed(["status": .integer(0)]))
    }

    func testAnEventTheStateDoesNotExpectFailsTheExchange() throws {
        // The driver only delivers notifications while the machine waits for one.
        var exchange = CommandExchange(try vendorSetup("activate", writes: [[0x01, 0x00], [0x04]]))
        _ = exchange.handle(.begin(now: .zero))
        guard case .evaluation? = failure(exchange.handle(.notification(valueHandle: 3, value: [0x02, 0x00, 0x84, 0x00],
                                                                         now: ms(10)))) else {
            return XCTFail("a notification while writing is an internal error")
        }
    }

    func testTwoFramesInOneNotificationTheSecondMatching() throws {
        var exchange = CommandExchange(try vendorSetup("activate", writes: [[0x01, 0x00, 0x04]]))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3,
                                                     value: [0x02, 0x00, 0x82, 0x00, 0x02, 0x00, 0x84, 0x00], now: ms(45))),
                       .completed(["status": .integer(0)]))
    }

    func testNonMatchingAnswersAreIgnoredThenTimeoutRetriesThenFailsListingThem() throws {
        let writes = startWrites
        var exchange = CommandExchange(try vendorSetup("start", writes: writes, attempts: 2))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        _ = exchange.handle(.writeAccepted(now: ms(60)))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(90))), .awaitNotification(until: ms(5_090)))
        // A data answer (opcode 0x82) and a start answer one byte too long.
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3,
                                                     value: [0x06, 0x00, 0x82, 0x00, 0x05, 0x00, 0x00, 0x00], now: ms(120))),
                       .awaitNotification(until: ms(5_090)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3,
                                                     value: [0x05, 0x00, 0x81, 0x00, 0x00, 0x10, 0xEE], now: ms(135))),
                       .awaitNotification(until: ms(5_090)))
        // Timeout: the whole request again, from its first segment.
        XCTAssertEqual(exchange.handle(.deadlinePassed(now: ms(5_090))),
                       .write(writes[0], to: control))
        _ = exchange.handle(.writeAccepted(now: ms(5_120)))
        _ = exchange.handle(.writeAccepted(now: ms(5_150)))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(5_180))), .awaitNotification(until: ms(10_180)))
        let failure = failure(exchange.handle(.deadlinePassed(now: ms(10_180))))
        guard case let .timeout(after, attempts, ignored)? = failure else {
            return XCTFail("expected a timeout, got \(String(describing: failure))")
        }
        XCTAssertEqual(after, .seconds(5))
        XCTAssertEqual(attempts, 2)
        XCTAssertEqual(ignored, [
            "820005000000 (field #1 at offset 0 is 130 (0x82), not 129 (0x81))",
            "81000010ee (1 unexpected bytes after the last field)",
        ])
        XCTAssertTrue(failure?.isRetryable ?? false)
        // Nothing more happens once it ended.
        guard case .failed = exchange.handle(.notification(valueHandle: 3, value: [0x04, 0x00, 0x81, 0x00, 0x00, 0x10], now: ms(10_200))) else {
            return XCTFail("an ended exchange accepts nothing")
        }
    }

    func testHalfAFrameIsDiscardedWhenTheRequestIsSentAgain() throws {
        var exchange = CommandExchange(try vendorSetup("activate", writes: [[0x01, 0x00, 0x04]], attempts: 2))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x02, 0x00, 0x84], now: ms(45))),
                       .awaitNotification(until: ms(5_030)))
        _ = exchange.handle(.deadlinePassed(now: ms(5_030)))
        _ = exchange.handle(.writeAccepted(now: ms(5_060)))
        // Had the lost byte been kept, this would read as 84 02 00 84 and not match.
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x02, 0x00, 0x84, 0x00], now: ms(5_090))),
                       .completed(["status": .integer(0)]))
    }

    func testGarbageHeaderIsRememberedAndTheStreamStartsOver() throws {
        var exchange = CommandExchange(try vendorSetup("activate", writes: [[0x01, 0x00, 0x04]]))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0xFF, 0xFF, 0x84], now: ms(45))),
                       .awaitNotification(until: ms(5_030)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x02, 0x00, 0x84, 0x00], now: ms(60))),
                       .completed(["status": .integer(0)]))
    }

    func testGarbageIsListedInTheTimeout() throws {
        var exchange = CommandExchange(try vendorSetup("activate", writes: [[0x01, 0x00, 0x04]]))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        _ = exchange.handle(.notification(valueHandle: 3, value: [0xFF, 0xFF, 0x84], now: ms(45)))
        guard case let .timeout(_, attempts, ignored)? = failure(exchange.handle(.deadlinePassed(now: ms(5_030)))) else {
            return XCTFail("expected a timeout")
        }
        XCTAssertEqual(attempts, 1)
        XCTAssertEqual(ignored.count, 1)
        XCTAssertTrue(ignored[0].hasPrefix("garbage notification ffff84: "), ignored[0])
    }

    func testDeviceStatusFailureNamesTheCodeFromTheTable() throws {
        var exchange = CommandExchange(try vendorSetup("start", writes: [[0x01]]))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        guard case let .deviceStatus(status)? = failure(exchange.handle(.notification(
            valueHandle: 3, value: [0x04, 0x00, 0x81, 0x03, 0x00, 0x00], now: ms(45)))) else {
            return XCTFail("expected a device status")
        }
        XCTAssertEqual(status.code, 3)
        XCTAssertEqual(status.name, "too-large")
        XCTAssertEqual(status.message, "the image does not fit in the device's update slot")
        XCTAssertNil(status.detailCode)
        XCTAssertEqual(status.description, "status 0x3 (too-large): the image does not fit in the device's update slot")
    }

    func testUnknownStatusCodeIsStillReportedByNumber() throws {
        var exchange = CommandExchange(try vendorSetup("activate", writes: [[0x01]]))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        guard case let .deviceStatus(status)? = failure(exchange.handle(.notification(
            valueHandle: 3, value: [0x02, 0x00, 0x84, 0xEE], now: ms(45)))) else {
            return XCTFail("expected a device status")
        }
        XCTAssertEqual(status, DeviceStatus(code: 0xEE))
        XCTAssertEqual(status.description, "status 0xEE")
    }

    // MARK: - A profile with extended errors, match conditions and no framing

    private static let nordicLike = """
    profile: nordic-like
    characteristics:
      cp:
        service: FE59
        uuid: 8EC90001-F315-4F60-9FB8-838830DAEA50
        properties: [write, notify]
      packet:
        service: FE59
        uuid: 8EC90002-F315-4F60-9FB8-838830DAEA50
        properties: [write-without-response]
    codes:
      results:
        0x01: success
        0x0B: { name: extended-error, message: "the device gave an extended error" }
      extended:
        0x07: { name: wrong-hash-type, message: "the hash type is not supported" }
    commands:
      create:
        characteristic: cp
        request:
          - { type: u8, value: 0x01 }
          - { name: seq, type: u8, value: 7 }
        response:
          fields:
            - { type: u8, value: 0x60 }
            - { type: u8, value: 0x01 }
            - { name: seq, type: u8 }
            - { name: result, type: u8 }
            - { name: extended, type: u8 }
          match: [response.seq == request.seq]
          status: { field: result, success: [0x01], codes: results, detail: { when: 0x0B, field: extended, codes: extended } }
      reset:
        characteristic: packet
        request:
          - { type: u8, value: 0x0C }
    procedure:
      - send: create
      - send: reset
    """

    private func nordicSetup(_ command: String) throws -> CommandExchange.Setup {
        let profile = try InlineProfiles.load(Self.nordicLike)
        let spec = try XCTUnwrap(profile.commands[command])
        let (bytes, fields) = try MessageEncoder.encode(spec.request, in: Scope())
        return CommandExchange.Setup(command: spec, writes: [bytes],
                                     target: spec.request.characteristic == "cp" ? control : packet,
                                     responseHandle: 3, responseFraming: nil, timeout: .seconds(1), attempts: 1,
                                     scope: Scope(["request": .record(fields)]), codeTables: profile.codeTables)
    }

    func testExtendedErrorIsDecodedWithBothTables() throws {
        var exchange = CommandExchange(try nordicSetup("create"))
        XCTAssertEqual(exchange.handle(.begin(now: .zero)), .write([0x01, 0x07], to: control))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(30))), .awaitNotification(until: ms(1_030)))
        guard case let .deviceStatus(status)? = failure(exchange.handle(.notification(
            valueHandle: 3, value: [0x60, 0x01, 0x07, 0x0B, 0x07], now: ms(45)))) else {
            return XCTFail("expected a device status")
        }
        XCTAssertEqual(status, DeviceStatus(code: 0x0B, name: "extended-error", message: "the device gave an extended error",
                                            detailCode: 7, detailName: "wrong-hash-type",
                                            detailMessage: "the hash type is not supported"))
        XCTAssertEqual(status.description, "status 0xB (extended-error): the device gave an extended error; "
                       + "detail 0x7 (wrong-hash-type): the hash type is not supported")
    }

    func testDetailIsReadOnlyForItsStatus() throws {
        var exchange = CommandExchange(try nordicSetup("create"))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        guard case let .deviceStatus(status)? = failure(exchange.handle(.notification(
            valueHandle: 3, value: [0x60, 0x01, 0x07, 0x05, 0x07], now: ms(45)))) else {
            return XCTFail("expected a device status")
        }
        XCTAssertEqual(status, DeviceStatus(code: 5))
    }

    func testMatchConditionSkipsAnswersToOtherRequests() throws {
        var exchange = CommandExchange(try nordicSetup("create"))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x60, 0x01, 0x06, 0x01, 0x00], now: ms(45))),
                       .awaitNotification(until: ms(1_030)))
        XCTAssertEqual(exchange.handle(.notification(valueHandle: 3, value: [0x60, 0x01, 0x07, 0x01, 0x00], now: ms(60))),
                       .completed(["seq": .integer(7), "result": .integer(1), "extended": .integer(0)]))
    }

    func testMatchFailureIsListedInTheTimeout() throws {
        var exchange = CommandExchange(try nordicSetup("create"))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        _ = exchange.handle(.notification(valueHandle: 3, value: [0x60, 0x01, 0x06, 0x01, 0x00], now: ms(45)))
        guard case let .timeout(_, _, ignored)? = failure(exchange.handle(.deadlinePassed(now: ms(1_030)))) else {
            return XCTFail("expected a timeout")
        }
        XCTAssertEqual(ignored, ["6001060100 (fails match 'response.seq == request.seq')"])
    }

    func testCommandWithoutResponseCompletesOnceWritten() throws {
        var exchange = CommandExchange(try nordicSetup("reset"))
        XCTAssertEqual(exchange.handle(.begin(now: .zero)), .write([0x0C], to: packet))
        XCTAssertEqual(exchange.handle(.writeAccepted(now: ms(30))), .completed([:]))
    }

    func testAtMostFiveIgnoredAnswersAreRemembered() throws {
        var exchange = CommandExchange(try nordicSetup("create"))
        _ = exchange.handle(.begin(now: .zero))
        _ = exchange.handle(.writeAccepted(now: ms(30)))
        for seq in 0..<7 as Range<UInt8> {
            _ = exchange.handle(.notification(valueHandle: 3, value: [0x60, 0x01, seq, 0x01, 0x00], now: ms(45)))
        }
        guard case let .timeout(_, _, ignored)? = failure(exchange.handle(.deadlinePassed(now: ms(1_030)))) else {
            return XCTFail("expected a timeout")
        }
        XCTAssertEqual(ignored.count, 5)
        XCTAssertEqual(ignored.first, "6001000100 (fails match 'response.seq == request.seq')")
    }
}
