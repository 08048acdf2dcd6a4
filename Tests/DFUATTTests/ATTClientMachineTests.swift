import DFUATT
import DFUGATT
import XCTest

/// `ATTClientMachine` event by event: each event's actions compared whole, in order.
final class ATTClientMachineTests: XCTestCase {
    static let address = "C0:FF:EE:00:00:02"

    func makeMachine(bearerMTU: Int = 23) -> ATTClientMachine {
        ATTClientMachine(bearerMTU: bearerMTU, transactionTimeout: .seconds(30), address: Self.address)
    }

    func error(_ kind: GATTError.Kind, _ detail: String) -> GATTError {
        GATTError(kind, address: Self.address, detail: detail)
    }

    func read(_ id: UInt64, handle: UInt8) -> ATTClientEvent {
        .requestIssued(id, opcode: .readRequest, pdu: [0x0A, handle, 0x00])
    }

    func testOneRequestOutstandingTheNextSentOnTheResponse() {
        var machine = makeMachine()
        XCTAssertEqual(machine.handle(read(1, handle: 0x03), at: .zero),
                       [.startTimer(1, deadline: .seconds(30)), .send(hexBytes("0a 03 00"), request: 1)])
        XCTAssertEqual(machine.handle(read(2, handle: 0x05), at: .seconds(1)), [], "queued, not on the wire")
        XCTAssertEqual(machine.queuedRequestCount, 1)
        XCTAssertTrue(machine.hasOutstandingRequest)
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("0b 2a")), at: .seconds(2)),
                       [.cancelTimer(1), .completeRequest(1, .success(hexBytes("0b 2a"))),
                        .startTimer(2, deadline: .seconds(32)), .send(hexBytes("0a 05 00"), request: 2)])
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("0b 2b")), at: .seconds(3)),
                       [.cancelTimer(2), .completeRequest(2, .success(hexBytes("0b 2b")))])
        XCTAssertFalse(machine.hasOutstandingRequest)
        XCTAssertEqual(machine.queuedRequestCount, 0)
    }

    func testErrorResponseNamingTheRequestFailsOnlyIt() {
        var machine = makeMachine()
        _ = machine.handle(.requestIssued(1, opcode: .writeRequest, pdu: hexBytes("12 10 00 01")), at: .zero)
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("01 12 10 00 03")), at: .seconds(1)),
                       [.cancelTimer(1), .completeRequest(1, .failure(error(
                           .attError(code: 0x03, handle: 0x0010),
                           "Write Request (0x12) on handle 0x0010 failed: \(ATTErrorCode.writeNotPermitted)")))])
        XCTAssertEqual(machine.handle(read(2, handle: 0x03), at: .seconds(2)),
                       [.startTimer(2, deadline: .seconds(32)), .send(hexBytes("0a 03 00"), request: 2)],
                       "the bearer goes on")
    }

    func testAnswerToAnotherRequestIsAViolationThatEndsTheBearer() {
        var machine = makeMachine()
        _ = machine.handle(read(1, handle: 0x03), at: .zero)
        _ = machine.handle(read(2, handle: 0x05), at: .zero)
        let ended = error(.disconnected, "ATT protocol violation: Error Response (0x01) names Write Request (0x12) "
                                         + "but Read Request (0x0A) is outstanding; the ATT bearer was closed")
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("01 12 03 00 03")), at: .seconds(1)),
                       [.cancelTimer(1), .completeRequest(1, .failure(ended)), .completeRequest(2, .failure(ended)),
                        .closeBearer])
        XCTAssertEqual(machine.droppedPDUCount, 1)
        XCTAssertEqual(machine.handle(read(3, handle: 0x07), at: .seconds(2)), [.completeRequest(3, .failure(ended))])
    }

    func testTransactionTimeoutEndsTheBearerAndNothingIsSentAfter() {
        var machine = makeMachine()
        _ = machine.handle(read(1, handle: 0x03), at: .zero)
        _ = machine.handle(read(2, handle: 0x05), at: .zero)
        let closed = error(.disconnected, "the ATT bearer was closed after Read Request (0x0A) timed out")
        XCTAssertEqual(machine.handle(.timerFired(1), at: .seconds(30)),
                       [.completeRequest(1, .failure(error(.timeout, "no answer to Read Request (0x0A) within 30.0 seconds "
                                                           + "(ATT transaction timeout); the ATT bearer was closed, reconnect to go on"))),
                        .completeRequest(2, .failure(closed)), .closeBearer])
        XCTAssertEqual(machine.endedWith, closed)
        // Core Vol 3, Part F, 3.3.3: no more ATT PDUs on this bearer, not even a confirmation.
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("0b 00")), at: .seconds(31)), [])
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("1d 11 00 aa")), at: .seconds(31)), [])
        XCTAssertEqual(machine.handle(.timerFired(1), at: .seconds(31)), [], "a late timer is ignored")
    }

    func testCancelledOutstandingRequestEndsTheBearerAQueuedOneDoesNot() {
        var machine = makeMachine()
        _ = machine.handle(read(1, handle: 0x03), at: .zero)
        _ = machine.handle(read(2, handle: 0x05), at: .zero)
        XCTAssertEqual(machine.handle(.cancelled(2), at: .seconds(1)),
                       [.completeRequest(2, .failure(error(.disconnected, "Read Request (0x0A) cancelled before it was sent")))])
        XCTAssertNil(machine.endedWith)
        XCTAssertEqual(machine.handle(.cancelled(1), at: .seconds(1)),
                       [.cancelTimer(1),
                        .completeRequest(1, .failure(error(.disconnected, "Read Request (0x0A) cancelled before its answer"))),
                        .closeBearer])
        XCTAssertEqual(machine.endedWith,
                       error(.disconnected, "the ATT bearer was closed after Read Request (0x0A) was cancelled"))
    }

    func testIndicationGoesToTheOldestWaitAndIsConfirmed() {
        var machine = makeMachine()
        XCTAssertEqual(machine.handle(.valueWaitStarted(1, until: .seconds(10)), at: .zero),
                       [.startTimer(1, deadline: .seconds(10))])
        XCTAssertEqual(machine.handle(.valueWaitStarted(2, until: .seconds(5)), at: .zero),
                       [.startTimer(2, deadline: .seconds(5))])
        let value = ATTReceivedValue(kind: .indication, attributeHandle: 0x0011, attributeValue: [0xAA],
                                     receivedAt: .seconds(1))
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("1d 11 00 aa")), at: .seconds(1)),
                       [.cancelTimer(1), .completeValueWait(1, .success(value)), .send(hexBytes("1e"), request: nil)])
        XCTAssertEqual(machine.handle(.timerFired(2), at: .seconds(5)), [.completeValueWait(2, .success(nil))])
        XCTAssertEqual(machine.handle(.valueWaitStarted(3, until: .seconds(5)), at: .seconds(5)),
                       [.completeValueWait(3, .success(nil))], "a deadline already passed")
    }

    func testValuesThatArrivedBeforeTheEndComeBeforeItsError() {
        var machine = makeMachine()
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("1b 11 00 01")), at: .seconds(1)), [])
        XCTAssertEqual(machine.bufferedValueCount, 1)
        XCTAssertEqual(machine.handle(.bearerEnded(GATTError(.disconnected, detail: "the link dropped")), at: .seconds(2)),
                       [.closeBearer])
        let value = ATTReceivedValue(kind: .notification, attributeHandle: 0x0011, attributeValue: [0x01],
                                     receivedAt: .seconds(1))
        XCTAssertEqual(machine.handle(.valueWaitStarted(1, until: .seconds(9)), at: .seconds(3)),
                       [.completeValueWait(1, .success(value))])
        XCTAssertEqual(machine.handle(.valueWaitStarted(2, until: .seconds(9)), at: .seconds(3)),
                       [.completeValueWait(2, .failure(error(.disconnected, "the link dropped")))],
                       "the bearer's error gets the client's address")
    }

    func testMTUFromTheExchangeEitherWay() {
        var client = makeMachine(bearerMTU: 247)
        _ = client.handle(.requestIssued(1, opcode: .exchangeMTURequest, pdu: hexBytes("02 f7 00")), at: .zero)
        _ = client.handle(.pduReceived(hexBytes("03 64 00")), at: .seconds(1))
        XCTAssertEqual(client.mtu, 100, "min(client 247, server 100)")

        var asked = makeMachine(bearerMTU: 247)
        XCTAssertEqual(asked.handle(.pduReceived(hexBytes("02 32 00")), at: .zero),
                       [.send(hexBytes("03 f7 00"), request: nil)])
        XCTAssertEqual(asked.mtu, 50)

        var small = makeMachine()
        XCTAssertEqual(small.handle(.requestIssued(1, opcode: .writeRequest, pdu: [UInt8](repeating: 0x12, count: 24)), at: .zero),
                       [.completeRequest(1, .failure(error(.unsupported, "Write Request (0x12) of 24 bytes exceeds ATT_MTU 23")))])
    }

    func testThePeersRequestsAndStrayPDUs() {
        var machine = makeMachine()
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("0a 03 00")), at: .zero),
                       [.send(hexBytes("01 0a 00 00 06"), request: nil)], "Request Not Supported")
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("0a 03")), at: .zero),
                       [.send(hexBytes("01 0a 00 00 04"), request: nil)], "Invalid PDU")
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("52 11 00 01")), at: .zero), [], "a command is dropped")
        XCTAssertEqual(machine.droppedPDUCount, 1)
        XCTAssertEqual(machine.handle(.pduReceived(hexBytes("0b 00")), at: .zero), [.closeBearer],
                       "a response with nothing outstanding ends the bearer")
        XCTAssertEqual(machine.endedWith?.detail,
                       "ATT protocol violation: Read Response (0x0B) with no request outstanding; the ATT bearer was closed")
    }

    func testARefusedSendFailsTheRequestAndTheNextGoesOut() {
        var machine = makeMachine()
        _ = machine.handle(read(1, handle: 0x03), at: .zero)
        _ = machine.handle(read(2, handle: 0x05), at: .zero)
        XCTAssertEqual(machine.handle(.requestSendFailed(1, GATTError(.disconnected, detail: "queue full")), at: .seconds(1)),
                       [.cancelTimer(1), .completeRequest(1, .failure(error(.disconnected, "queue full"))),
                        .startTimer(2, deadline: .seconds(31)), .send(hexBytes("0a 05 00"), request: 2)])
    }
}
