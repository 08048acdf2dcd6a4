import DFUGATT
@testable import DFUHCI
import XCTest

/// `HCIConnectionLifecycle` event by event: one attempt at a time, a connection's phases, a
/// reused handle; each event's actions compared whole, in order.
final class HCIConnectionLifecycleTests: XCTestCase {
    let peer = DeviceAddress(value: 0xC0FF_EE00_0001)
    let other = DeviceAddress(value: 0xC0FF_EE00_0002)

    func testOneAttemptAtATimeAndAnExistingConnectionIsReused() {
        var machine = HCIConnectionLifecycle()
        XCTAssertEqual(machine.handle(.connectRequested(peer)), [.createConnection(peer)])
        XCTAssertEqual(machine.handle(.connectRequested(other)),
                       [.refuse(HCIError(.invalidState, detail: "a connection to \(peer) is already being made; "
                                         + "connect to one device at a time"))])
        XCTAssertEqual(machine.handle(.connectionCompleted(handle: 0x40, connection: 1, peer: peer, asCentral: true)),
                       [.open(handle: 0x40, connection: 1)])
        XCTAssertEqual(machine.handle(.connectAttemptEnded), [])
        XCTAssertEqual(machine.phase(0x40), .connected)
        XCTAssertEqual(machine.handle(.connectRequested(peer)), [.useExisting(handle: 0x40)])
        XCTAssertNil(machine.attempt, "handing out the existing connection starts no attempt")
    }

    func testAConnectionNobodyAskedForIsClosed() {
        var machine = HCIConnectionLifecycle()
        XCTAssertEqual(machine.handle(.connectionCompleted(handle: 0x41, connection: 2, peer: peer, asCentral: true)),
                       [.open(handle: 0x41, connection: 2), .disconnect(handle: 0x41)],
                       "a cancelled attempt that completed late")
        XCTAssertEqual(machine.phase(0x41), .connected)
    }

    func testPairingPhases() {
        var machine = HCIConnectionLifecycle()
        _ = machine.handle(.connectRequested(peer))
        _ = machine.handle(.connectionCompleted(handle: 0x40, connection: 1, peer: peer, asCentral: true))
        XCTAssertEqual(machine.handle(.encryptionStarted(handle: 0x40)), [])
        XCTAssertEqual(machine.phase(0x40), .encrypting)
        XCTAssertEqual(machine.handle(.encryptionStarted(handle: 0x40)),
                       [.refuse(HCIError(.invalidState, detail: "connection 0x0040 is encrypting, not waiting to be encrypted"))])
        XCTAssertEqual(machine.handle(.encryptionEnded(handle: 0x40, enabled: false)), [])
        XCTAssertEqual(machine.phase(0x40), .connected, "a failed pairing leaves the link as it was")
        _ = machine.handle(.encryptionStarted(handle: 0x40))
        _ = machine.handle(.encryptionEnded(handle: 0x40, enabled: true))
        XCTAssertEqual(machine.phase(0x40), .encrypted)
        XCTAssertEqual(machine.handle(.disconnectRequested(handle: 0x40)), [])
        XCTAssertEqual(machine.phase(0x40), .disconnecting)
    }

    func testAReusedHandleIsANewConnectionAndTheOldOnesEndIsRemembered() {
        var machine = HCIConnectionLifecycle()
        _ = machine.handle(.connectionCompleted(handle: 0x40, connection: 1, peer: peer, asCentral: false))
        let dropped = HCIError(.disconnected(handle: 0x40, reason: .connectionTimeout))
        XCTAssertEqual(machine.handle(.disconnected(handle: 0x40, reason: .connectionTimeout, dropped)),
                       [.tearDown(handle: 0x40, reason: .connectionTimeout, dropped)])
        XCTAssertEqual(machine.endReason(0x40), dropped, "a late sender on connection 1 learns why")
        XCTAssertEqual(machine.handle(.disconnected(handle: 0x40, reason: .connectionTimeout, dropped)), [],
                       "ended once")
        XCTAssertEqual(machine.handle(.encryptionStarted(handle: 0x40)), [.refuse(dropped)])
        XCTAssertEqual(machine.handle(.connectionCompleted(handle: 0x40, connection: 2, peer: other, asCentral: false)),
                       [.open(handle: 0x40, connection: 2)])
        XCTAssertNil(machine.endReason(0x40))
        XCTAssertEqual(machine.live[0x40]?.id, 2)
    }

    func testANewConnectionOnALiveHandleEndsTheOldOne() {
        var machine = HCIConnectionLifecycle()
        _ = machine.handle(.connectionCompleted(handle: 0x40, connection: 1, peer: peer, asCentral: false))
        let replaced = HCIError(.disconnected(handle: 0x40, reason: .unknownConnectionIdentifier),
                                detail: "the controller reported a new connection on this handle")
        XCTAssertEqual(machine.handle(.connectionCompleted(handle: 0x40, connection: 2, peer: other, asCentral: false)),
                       [.tearDown(handle: 0x40, reason: .unknownConnectionIdentifier, replaced),
                        .open(handle: 0x40, connection: 2)])
    }

    func testClosingTheHostEndsEveryConnection() {
        var machine = HCIConnectionLifecycle()
        _ = machine.handle(.connectionCompleted(handle: 0x41, connection: 2, peer: other, asCentral: false))
        _ = machine.handle(.connectionCompleted(handle: 0x40, connection: 1, peer: peer, asCentral: false))
        let closed = HCIError(.transportClosed, detail: "fake: closed by the host")
        XCTAssertEqual(machine.handle(.hostClosed(closed)),
                       [.tearDown(handle: 0x40, reason: .localHostTerminated, closed),
                        .tearDown(handle: 0x41, reason: .localHostTerminated, closed)])
        XCTAssertTrue(machine.live.isEmpty)
        XCTAssertEqual(machine.endReason(0x41), closed)
    }
}
