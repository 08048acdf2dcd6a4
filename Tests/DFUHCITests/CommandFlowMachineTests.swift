@testable import DFUHCI
import XCTest

/// `CommandFlowMachine` event by event (Core Vol 4, Part E, 4.4): one command outstanding, its
/// answer matched by opcode, a timeout per command, everything failed when the host closes;
/// each event's actions compared whole, in order.
final class CommandFlowMachineTests: XCTestCase {
    let reset = ResetCommand.opcode
    let scan = LESetScanEnableCommand.opcode
    let connect = LECreateConnectionCommand.opcode

    func issue(_ id: UInt64, _ opcode: HCIOpcode, _ name: String, timeout: Duration = .seconds(2)) -> CommandFlowEvent {
        .issued(id, opcode: opcode, name: name, timeout: timeout)
    }

    func complete(_ opcode: HCIOpcode, _ status: HCIStatus = .success, _ rest: [UInt8] = []) -> CommandFlowEvent {
        .eventReceived(.commandComplete(CommandCompleteEvent(opcode: opcode, status: status, rest: rest)))
    }

    func testOneCommandOutstandingTheNextGrantedOnTheAnswer() {
        var machine = CommandFlowMachine()
        XCTAssertEqual(machine.handle(issue(1, reset, "Reset")), [.grantTurn(1)])
        XCTAssertEqual(machine.handle(issue(2, scan, "LE Set Scan Enable")), [], "waits its turn")
        XCTAssertEqual(machine.waitingCount, 1)
        XCTAssertEqual(machine.handle(.sent(1)), [.startTimer(1, after: .seconds(2))])
        XCTAssertEqual(machine.handle(complete(scan)), [], "an answer to a command not outstanding")
        XCTAssertEqual(machine.handle(complete(reset, .success, [0x01])),
                       [.cancelTimer(1), .complete(1, .success([0x01])), .grantTurn(2)])
        XCTAssertEqual(machine.outstanding?.id, 2)
        XCTAssertEqual(machine.handle(.sent(2)), [.startTimer(2, after: .seconds(2))])
        XCTAssertEqual(machine.handle(complete(scan)), [.cancelTimer(2), .complete(2, .success([]))])
        XCTAssertNil(machine.outstanding)
        XCTAssertEqual(machine.handle(issue(3, reset, "Reset")), [.grantTurn(3)], "idle again: granted at once")
    }

    /// The controller may answer before the host's write returns: no timer is started then.
    func testAnswerBeforeTheWriteReturned() {
        var machine = CommandFlowMachine()
        _ = machine.handle(issue(1, reset, "Reset"))
        XCTAssertEqual(machine.handle(complete(reset)), [.complete(1, .success([]))])
        XCTAssertEqual(machine.handle(.sent(1)), [], "a late write report is ignored")
    }

    func testFailedStatusesFailTheCommandByName() {
        var machine = CommandFlowMachine()
        _ = machine.handle(issue(1, scan, "LE Set Scan Enable"))
        _ = machine.handle(.sent(1))
        XCTAssertEqual(machine.handle(complete(scan, .commandDisallowed)),
                       [.cancelTimer(1), .complete(1, .failure(HCIError(.commandFailed(
                           command: "LE Set Scan Enable", opcode: scan, status: .commandDisallowed))))])
        _ = machine.handle(issue(2, connect, "LE Create Connection"))
        _ = machine.handle(.sent(2))
        XCTAssertEqual(machine.handle(.eventReceived(.commandStatus(CommandStatusEvent(status: .success, opcode: connect)))),
                       [.cancelTimer(2), .complete(2, .success([]))], "Command Status: the command started")
        _ = machine.handle(issue(3, connect, "LE Create Connection"))
        _ = machine.handle(.sent(3))
        XCTAssertEqual(machine.handle(.eventReceived(.commandStatus(CommandStatusEvent(status: .commandDisallowed,
                                                                                       opcode: connect)))),
                       [.cancelTimer(3), .complete(3, .failure(HCIError(.commandFailed(
                           command: "LE Create Connection", opcode: connect, status: .commandDisallowed))))])
    }

    func testTimeoutFailsTheCommandAndTheNextGoes() {
        var machine = CommandFlowMachine()
        _ = machine.handle(issue(1, reset, "Reset", timeout: .milliseconds(500)))
        _ = machine.handle(issue(2, scan, "LE Set Scan Enable"))
        XCTAssertEqual(machine.handle(.timerFired(1)), [], "no timer before the write")
        XCTAssertEqual(machine.handle(.sent(1)), [.startTimer(1, after: .milliseconds(500))])
        XCTAssertEqual(machine.handle(.timerFired(1)),
                       [.complete(1, .failure(HCIError(.commandTimeout(command: "Reset", opcode: reset),
                                                       detail: "within 0.5 s"))),
                        .grantTurn(2)])
        XCTAssertEqual(machine.handle(complete(reset)), [], "the late answer is not the next command's")
        XCTAssertEqual(machine.handle(.timerFired(1)), [], "a late timer is ignored")
    }

    func testFailedWriteFailsOnlyThatCommand() {
        var machine = CommandFlowMachine()
        let broken = HCIError(.transportClosed, detail: "the pipe is gone")
        _ = machine.handle(issue(1, reset, "Reset"))
        _ = machine.handle(issue(2, scan, "LE Set Scan Enable"))
        XCTAssertEqual(machine.handle(.sendFailed(1, broken)), [.complete(1, .failure(broken)), .grantTurn(2)])
    }

    func testHostClosedFailsEveryCommandAndLaterOnes() {
        var machine = CommandFlowMachine()
        let closed = HCIError(.transportClosed, detail: "closed by the host")
        _ = machine.handle(issue(1, reset, "Reset"))
        _ = machine.handle(.sent(1))
        _ = machine.handle(issue(2, scan, "LE Set Scan Enable"))
        _ = machine.handle(issue(3, connect, "LE Create Connection"))
        XCTAssertEqual(machine.handle(.hostClosed(closed)),
                       [.cancelTimer(1), .complete(1, .failure(closed)), .complete(2, .failure(closed)),
                        .complete(3, .failure(closed))])
        XCTAssertEqual(machine.handle(issue(4, reset, "Reset")), [.complete(4, .failure(closed))])
        XCTAssertEqual(machine.handle(.hostClosed(HCIError(.transportClosed))), [], "the first reason stays")
        XCTAssertEqual(machine.handle(complete(reset)), [])
    }
}
