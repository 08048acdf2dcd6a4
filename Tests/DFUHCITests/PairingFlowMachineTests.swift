import DFUBytes
import DFUGATT
@testable import DFUHCI
import XCTest

/// `PairingFlowMachine` event by event: the Security Manager exchange against a Just Works
/// responder made of the specification's functions, then encryption; refusals, timeouts and
/// cancellation given as events, each failure saying why; link errors passed as they are;
/// late events ignored. Each event's actions compared whole, in order.
final class PairingFlowMachineTests: XCTestCase {
    let handle: UInt16 = 0x0040
    let mrand = [UInt8](repeating: 0x11, count: 16)
    let srand = [UInt8](hex: "F0E0D0C0B0A090807060504030201000")!
    let request: [UInt8] = [0x01, 0x03, 0x00, 0x00, 0x10, 0x00, 0x00]
    let response: [UInt8] = [0x02, 0x03, 0x00, 0x00, 0x10, 0x00, 0x00]

    func started(timeout: Duration = .seconds(30)) -> PairingFlowMachine {
        var machine = PairingFlowMachine(handle: handle, timeout: timeout, pairing: LegacyPairing(
            initiator: LegacyPairingTests.central, initiatorAddressType: 1, responder: LegacyPairingTests.peripheral,
            responderAddressType: 1, random: mrand))
        XCTAssertEqual(machine.handle(.started), [.send(request), .startTimer(after: timeout)])
        return machine
    }

    func confirm(_ random: [UInt8]) -> [UInt8] {
        LegacyPairingCrypto.c1(k: [UInt8](repeating: 0, count: 16), r: random, preq: request, pres: response, iat: 1,
                               rat: 1, ia: LegacyPairingTests.central.bytes, ra: LegacyPairingTests.peripheral.bytes)
    }

    /// Runs the exchange up to the short-term key; returns it.
    func exchange(_ machine: inout PairingFlowMachine) -> [UInt8] {
        XCTAssertEqual(machine.handle(.received(response)), [.send([0x03] + confirm(mrand).reversed())], "Mconfirm")
        XCTAssertEqual(machine.handle(.received([0x03] + confirm(srand).reversed())), [.send([0x04] + mrand.reversed())],
                       "Mrand")
        let key = Array(LegacyPairingCrypto.s1(k: [UInt8](repeating: 0, count: 16), r1: srand, r2: mrand).reversed())
        XCTAssertEqual(machine.handle(.received([0x04] + srand.reversed())),
                       [.extendTimer(atLeast: .seconds(1)), .enableEncryption(shortTermKey: key)])
        return key
    }

    func change(_ status: HCIStatus = .success, enabled: UInt8 = 1, handle: UInt16 = 0x0040) -> PairingFlowEvent {
        .encryptionChanged(EncryptionChangeEvent(status: status, handle: handle, encryptionEnabled: enabled))
    }

    func failure(_ detail: String) -> PairingFlowAction {
        .fail(HCIError(.pairingFailed(handle: 0x0040), detail: detail))
    }

    func testExchangeThenEncryption() {
        var machine = started()
        _ = exchange(&machine)
        XCTAssertEqual(machine.handle(.received(response)), [], "the device's PDUs are no longer read")
        XCTAssertEqual(machine.handle(.cancelled), [], "encryption is waited for through cancellation")
        XCTAssertEqual(machine.handle(change(handle: 0x0041)), [], "another connection's")
        XCTAssertEqual(machine.handle(change()), [.succeed])
        XCTAssertTrue(machine.isFinished)
        XCTAssertEqual(machine.handle(.timerFired), [], "a late timer is ignored")
    }

    func testEncryptionRefusedOrMissingSaysWhy() {
        var refused = started()
        _ = exchange(&refused)
        XCTAssertEqual(refused.handle(change(.authenticationFailure, enabled: 0)),
                       [failure("the controller did not encrypt the link: \(HCIStatus.authenticationFailure)")])
        var off = started()
        _ = exchange(&off)
        XCTAssertEqual(off.handle(change(enabled: 0)),
                       [failure("the controller did not encrypt the link: \(HCIStatus.success)")])
        var missing = started()
        _ = exchange(&missing)
        XCTAssertEqual(missing.handle(.timerFired), [failure("no Encryption Change event arrived")])
        var command = started()
        _ = exchange(&command)
        let disallowed = HCIError(.commandFailed(command: LEEnableEncryptionCommand.name,
                                                 opcode: LEEnableEncryptionCommand.opcode, status: .commandDisallowed))
        XCTAssertEqual(command.handle(.encryptionCommandFailed(disallowed)), [.fail(disallowed)], "passed as it is")
    }

    func testDeviceRefusalAndBadConfirmSayWhy() {
        var refused = started()
        XCTAssertEqual(refused.handle(.received([0x05, 0x05])),
                       [failure("the device refused pairing: Pairing Not Supported (0x05)")])
        XCTAssertEqual(refused.handle(.received(response)), [], "over")
        var wrong = started()
        _ = wrong.handle(.received(response))
        _ = wrong.handle(.received([0x03] + [UInt8](repeating: 1, count: 16)))
        XCTAssertEqual(wrong.handle(.received([0x04] + srand.reversed())),
                       [.send([0x05, 0x04]), failure("the device's confirm value does not match its random value")],
                       "Pairing Failed (Confirm Value Failed) goes to the device first")
        var requested = started()
        XCTAssertEqual(requested.handle(.received([0x0B, 0x00])), [], "a Security Request while pairing changes nothing")
    }

    func testTimeoutCancellationAndLinkErrors() {
        var silent = started(timeout: .milliseconds(200))
        XCTAssertEqual(silent.handle(.timerFired),
                       [failure("the device did not answer within 0.2 s (Security Manager timeout)")])
        var cancelled = started()
        XCTAssertEqual(cancelled.handle(.cancelled), [failure("cancelled while waiting for the device")])
        let gone = HCIError(.disconnected(handle: handle, reason: .remoteUserTerminated))
        var disconnected = started()
        XCTAssertEqual(disconnected.handle(.linkEnded(gone)), [.fail(gone)])
        var unsent = started()
        XCTAssertEqual(unsent.handle(.sendFailed(gone)), [.fail(gone)])
        XCTAssertEqual(unsent.handle(.linkEnded(gone)), [], "failed once")
    }
}
