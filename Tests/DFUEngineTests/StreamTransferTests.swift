import DFUBytes
@testable import DFUEngine
import DFUGATT
import DFUProfile
import XCTest

/// `StreamTransfer` driven by hand: raw segments, receipts every N writes, `expect` on receipts.
/// CRC32 values from Python's zlib: "123456" 0x0972D361, "1234567890" 0x261DAEE5.
final class StreamTransferTests: XCTestCase {
    private let data: [UInt8] = Array("1234567890".utf8)
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    private func setup(every: Int, from: Int = 0, expect: [String] = [], receipt: Bool = true) throws -> StreamTransfer.Setup {
        let profile = try InlineProfiles.profile(procedure: "  - send: get\n")
        return StreamTransfer.Setup(
            data: data, from: from, segmentSize: 3, characteristic: "packet", writeType: .withoutResponse,
            receiptEvery: every, receipt: receipt ? profile.notifications["receipt"] : nil, receiptAlias: "receipt",
            expect: try expect.map(InlineProfiles.expression), timeout: .seconds(2),
            scope: Scope(["image": InlineProfiles.imageRecord(data, crc32: 0x261D_AEE5, sha256: [])]))
    }

    private func write(_ text: String) -> StreamTransfer.Action {
        .write(Array(text.utf8), characteristic: "packet", type: .withoutResponse)
    }

    /// 60, offset u32 LE, crc u32 LE.
    private func receipt(offset: UInt8, crc: UInt32) -> [UInt8] {
        [0x60, offset, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
    }

    func testWithoutReceiptsEverySegmentIsWrittenInOrder() throws {
        var transfer = StreamTransfer(try setup(every: 0))
        XCTAssertEqual(transfer.handle(.begin(now: .zero)), write("123"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(1))), write("456"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(2))), write("789"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(3))), write("0"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(4))), .completed(lastReceipt: nil))
        XCTAssertEqual(transfer.position, 10)
    }

    func testStartsFromAnOffset() throws {
        var transfer = StreamTransfer(try setup(every: 0, from: 8))
        XCTAssertEqual(transfer.position, 8)
        XCTAssertEqual(transfer.handle(.begin(now: .zero)), write("90"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(1))), .completed(lastReceipt: nil))
    }

    func testWaitsForAReceiptEveryTwoWritesAndChecksIt() throws {
        let expect = ["receipt.offset == stream.offset", "receipt.crc == crc32(slice(image.data, 0, stream.offset))"]
        var transfer = StreamTransfer(try setup(every: 2, expect: expect))
        XCTAssertEqual(transfer.handle(.begin(now: .zero)), write("123"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(10))), write("456"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(20))), .awaitNotification(until: ms(2_020)))
        // Not a receipt (wrong opcode), then a receipt on another characteristic: both ignored.
        XCTAssertEqual(transfer.handle(.notification(characteristic: "control", value: [0x61, 6, 0, 0, 0, 0, 0, 0, 0], now: ms(30))),
                       .awaitNotification(until: ms(2_020)))
        XCTAssertEqual(transfer.handle(.notification(characteristic: "packet", value: receipt(offset: 6, crc: 0x0972_D361), now: ms(35))),
                       .awaitNotification(until: ms(2_020)))
        XCTAssertEqual(transfer.handle(.notification(characteristic: "control", value: receipt(offset: 6, crc: 0x0972_D361), now: ms(40))),
                       write("789"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(50))), write("0"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(60))), .awaitNotification(until: ms(2_060)))
        XCTAssertEqual(transfer.handle(.notification(characteristic: "control", value: receipt(offset: 10, crc: 0x261D_AEE5), now: ms(70))),
                       .completed(lastReceipt: ["offset": .integer(10), "crc": .integer(0x261D_AEE5)]))
    }

    func testEndsWithoutWaitingWhenTheLastReceiptIsNotDue() throws {
        var transfer = StreamTransfer(try setup(every: 3))
        _ = transfer.handle(.begin(now: .zero))
        _ = transfer.handle(.writeAccepted(now: ms(10)))
        _ = transfer.handle(.writeAccepted(now: ms(20)))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(30))), .awaitNotification(until: ms(2_030)))
        XCTAssertEqual(transfer.handle(.notification(characteristic: "control", value: receipt(offset: 9, crc: 1), now: ms(40))),
                       write("0"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(50))),
                       .completed(lastReceipt: ["offset": .integer(9), "crc": .integer(1)]))
    }

    func testFailedExpectationNamesTheConditionAndTheReceipt() throws {
        let expect = ["receipt.offset == stream.offset", "receipt.crc == crc32(slice(image.data, 0, stream.offset))"]
        var transfer = StreamTransfer(try setup(every: 2, expect: expect))
        _ = transfer.handle(.begin(now: .zero))
        _ = transfer.handle(.writeAccepted(now: ms(10)))
        _ = transfer.handle(.writeAccepted(now: ms(20)))
        let action = transfer.handle(.notification(characteristic: "control", value: receipt(offset: 6, crc: 0xCBF5_3A1C), now: ms(40)))
        guard case let .failed(box) = action, case let .expectationFailed(expression, location, values) = box.failure else {
            return XCTFail("expected a failed expectation, got \(action)")
        }
        XCTAssertEqual(expression, "receipt.crc == crc32(slice(image.data, 0, stream.offset))")
        XCTAssertEqual(location, InlineProfiles.location)
        XCTAssertEqual(values, "receipt = crc: 3421846044 (0xcbf53a1c), offset: 6")
    }

    func testMissingReceiptTimesOutListingWhatWasIgnored() throws {
        var transfer = StreamTransfer(try setup(every: 1))
        _ = transfer.handle(.begin(now: .zero))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(10))), .awaitNotification(until: ms(2_010)))
        _ = transfer.handle(.notification(characteristic: "control", value: [0x60, 3], now: ms(20)))
        let action = transfer.handle(.deadlinePassed(now: ms(2_010)))
        guard case let .failed(box) = action, case let .timeout(after, attempts, ignored) = box.failure else {
            return XCTFail("expected a timeout, got \(action)")
        }
        XCTAssertEqual(after, .seconds(2))
        XCTAssertEqual(attempts, 1)
        XCTAssertEqual(ignored, ["6003 (2 bytes end before field 'offset' at offset 1)"])
    }

    func testEveryWithoutAReceiptSpecNeverWaits() throws {
        var transfer = StreamTransfer(try setup(every: 1, receipt: false))
        _ = transfer.handle(.begin(now: .zero))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(10))), write("456"))
    }
}
