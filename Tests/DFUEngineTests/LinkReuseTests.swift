@testable import DFUEngine
import DFUGATT
import DFUProfile
import XCTest

/// What a device session does before its next operation, decision by decision.
final class LinkReuseTests: XCTestCase {
    private let app = DeviceAddress(string: "C0:FF:EE:00:00:10")!
    private let bootloader = DeviceAddress(string: "C0:FF:EE:00:00:11")!

    private func reboot(_ comesBackAt: ReconnectStep.Address) -> PendingReboot {
        PendingReboot(command: "execute", timing: RebootTiming(grace: .seconds(2), bootTimeout: .seconds(30)),
                      comesBackAt: comesBackAt, sentAt: .seconds(7))
    }

    func testNoDeviceYetConnectsFirst() {
        XCTAssertEqual(LinkReuse.decide(address: nil, origin: nil, pendingReboot: nil, linkIsUp: false), .connectFirst)
    }

    func testALinkThatIsUpWithNoRebootDueIsReused() {
        XCTAssertEqual(LinkReuse.decide(address: app, origin: app, pendingReboot: nil, linkIsUp: true), .reuse)
    }

    func testALinkThatDroppedIsConnectedAgainWhereTheSessionWas() {
        XCTAssertEqual(LinkReuse.decide(address: bootloader, origin: app, pendingReboot: nil, linkIsUp: false),
                       .reconnect(to: bootloader))
    }

    /// Even with the link still up (Zephyr answers `reset` and runs on for 250 ms), a reboot that
    /// is due is waited for.
    func testARebootDueIsWaitedForEvenWhileTheLinkIsUp() {
        let due = reboot(.same)
        XCTAssertEqual(LinkReuse.decide(address: app, origin: app, pendingReboot: due, linkIsUp: true),
                       .awaitReboot(due, target: app, fallback: nil))
    }

    /// Nordic: the bootloader (address + 1) executes the last object and resets; the application it
    /// starts advertises on the address the update started at, tried when the bootloader's is silent.
    func testAfterTheBootloaderResetsTheStartAddressIsTheFallback() {
        let due = reboot(.same)
        XCTAssertEqual(LinkReuse.decide(address: bootloader, origin: app, pendingReboot: due, linkIsUp: false),
                       .awaitReboot(due, target: bootloader, fallback: app))
        let next = reboot(.next)
        XCTAssertEqual(LinkReuse.decide(address: app, origin: app, pendingReboot: next, linkIsUp: true),
                       .awaitReboot(next, target: bootloader, fallback: app))
    }
}
