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
            data: data, from: from, segmentSize: 3, target: packet,
            receiptEvery: every, receipt: receipt ? profile.notifications["receipt"] : nil, receiptHandle: controlHandle,
            receiptAlias: "receipt",
            expect: try expect.map(InlineProfiles.expression), timeout: .seconds(2),
            scope: Scope(["image": InlineProfiles.imageRecord(data, crc32: 0x261D_AEE5, sha256: [])]))
    }

    private let controlHandle: UInt16 = 3
    private let packet = WriteTarget(role: "packet", characteristic: GATTCharacteristic(
        service: BluetoothUUID(uuid16: 0xFE59), uuid: BluetoothUUID(uuid16: 0x2A00), valueHandle: 6,
        properties: [.writeWithoutResponse]), type: .withoutResponse)

    private func write(_ text: String) -> StreamTransfer.Action {
        .write(Array(text.utf8), to: packet)
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
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(4))), .completed(nil))
        XCTAssertEqual(transfer.position, 10)
    }

    func testStartsFromAnOffset() throws {
        var transfer = StreamTransfer(try setup(every: 0, from: 8))
        XCTAssertEqual(transfer.position, 8)
        XCTAssertEqual(transfer.handle(.begin(now: .zero)), write("90"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(1))), .completed(nil))
    }

    func testWaitsForAReceiptEveryTwoWritesAndChecksIt() throws {
        let expect = ["receipt.offset == stream.offset", "receipt.crc == crc32(slice(image.data, 0, stream.offset))"]
        var transfer = StreamTransfer(try setup(every: 2, expect: expect))
        XCTAssertEqual(transfer.handle(.begin(now: .zero)), write("123"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(10))), write("456"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(20))), .awaitNotification(until: ms(2_020)))
        // Not a receipt (wrong opcode), then a receipt on another characteristic: both ignored.
        XCTAssertEqual(transfer.handle(.notification(valueHandle: controlHandle, value: [0x61, 6, 0, 0, 0, 0, 0, 0, 0], now: ms(30))),
                       .awaitNotification(until: ms(2_020)))
        XCTAssertEqual(transfer.handle(.notification(valueHandle: 6, value: receipt(offset: 6, crc: 0x0972_D361), now: ms(35))),
                       .awaitNotification(until: ms(2_020)))
        XCTAssertEqual(transfer.handle(.notification(valueHandle: controlHandle, value: receipt(offset: 6, crc: 0x0972_D361), now: ms(40))),
                       write("789"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(50))), write("0"))
        // The 4th write is the last and a receipt boundary: nothing is waited for (Nordic's
        // clients never wait after the final packet; an SDK 11 bootloader sends none there).
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(60))),
                       .completed(["offset": .integer(6), "crc": .integer(0x0972_D361)]))
    }

    func testAReceiptBoundaryOnTheFinalWriteIsNeverWaitedFor() throws {
        // 10 bytes in 3-byte writes: 4 writes. Receipts every 1, 2 and 4 all fall on the last.
        for every in [1, 2, 4] {
            var transfer = StreamTransfer(try setup(every: every))
            var action = transfer.handle(.begin(now: .zero))
            var writes = 0
            var time = 0
            while case .write = action {
                writes += 1
                time += 10
                action = transfer.handle(.writeAccepted(now: ms(time)))
                if writes < 4, writes % every == 0 {
                    XCTAssertEqual(action, .awaitNotification(until: ms(2_000 + time)), "every \(every), write \(writes)")
                    action = transfer.handle(.notification(valueHandle: controlHandle,
                                                           value: receipt(offset: UInt8(writes * 3), crc: 1), now: ms(time)))
                }
            }
            XCTAssertEqual(writes, 4, "every \(every)")
            guard case .completed = action else { return XCTFail("every \(every): \(action)") }
        }
    }

    func testEndsWithoutWaitingWhenTheLastReceiptIsNotDue() throws {
        var transfer = StreamTransfer(try setup(every: 3))
        _ = transfer.handle(.begin(now: .zero))
        _ = transfer.handle(.writeAccepted(now: ms(10)))
        _ = transfer.handle(.writeAccepted(now: ms(20)))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(30))), .awaitNotification(until: ms(2_030)))
        XCTAssertEqual(transfer.handle(.notification(valueHandle: controlHandle, value: receipt(offset: 9, crc: 1), now: ms(40))),
                       write("0"))
        XCTAssertEqual(transfer.handle(.writeAccepted(now: ms(50))),
                       .completed(["offset": .integer(9), "crc": .integer(1)]))
    }

    func testFailedExpectationNamesTheConditionAndTheReceipt() throws {
        let expect = ["receipt.offset == stream.offset", "receipt.crc == crc32(slice(image.data, 0, stream.offset))"]
        var transfer = StreamTransfer(try setup(every: 2, expect: expect))
        _ = transfer.handle(.begin(now: .zero))
        _ = transfer.handle(.writeAccepted(now: ms(10)))
        _ = transfer.handle(.writeAccepted(now: ms(20)))
        let action = transfer.handle(.notification(valueHandle: controlHandle, value: receipt(offset: 6, crc: 0xCBF5_3A1C), now: ms(40)))
        guard case let .failed(.expectationFailed(expression, location, values)) = action else {
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
        _ = transfer.handle(.notification(valueHandle: controlHandle, value: [0x60, 3], now: ms(20)))
        let action = transfer.handle(.deadlinePassed(now: ms(2_010)))
        guard case let .failed(.timeout(after, attempts, ignored)) = action else {
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
