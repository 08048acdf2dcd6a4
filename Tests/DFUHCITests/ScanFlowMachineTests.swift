@testable import DFUHCI
import DFUGATT
import XCTest

/// `ScanFlowMachine` event by event: scanning on and off, reports merged per device in the
/// order first heard, waits for one device matched against what was heard and what comes,
/// timeouts and cancellations given as events, the host's close delivered to every waiter, late
/// events ignored. Each event's actions compared whole, in order.
final class ScanFlowMachineTests: XCTestCase {
    let peer = DeviceAddress(value: 0xC0FF_EE00_0001)
    let other = DeviceAddress(value: 0xC0FF_EE00_0002)
    /// Flags, then the complete local name "DFU".
    let named: [UInt8] = [0x02, 0x01, 0x06, 0x04, 0x09, 0x44, 0x46, 0x55]

    func report(_ address: DeviceAddress, _ data: [UInt8] = [], scanResponse: Bool = false, connectable: Bool = true,
                rssi: Int = -50) -> ScanFlowEvent {
        .reported(HCIAdvertisingReport(address: address, addressType: .randomDevice, data: data,
                                       isScanResponse: scanResponse, isConnectable: connectable, rssi: rssi))
    }

    func heard(_ address: DeviceAddress, _ data: [UInt8] = [], connectable: Bool = true, rssi: Int = -50) -> HCIAdvertisement {
        HCIAdvertisement(address: address, addressType: .randomDevice, isConnectable: connectable,
                         advertisingData: AdvertisingData(bytes: data), rssi: rssi)
    }

    func address(_ wanted: DeviceAddress) -> @Sendable (HCIAdvertisement) -> Bool {
        { $0.address == wanted }
    }

    func testStartAndStopSendTheCommandsOnce() {
        var machine = ScanFlowMachine()
        XCTAssertEqual(machine.handle(.stopRequested), [], "not scanning")
        XCTAssertEqual(machine.handle(.startRequested), [.enableScanning])
        XCTAssertFalse(machine.isScanning, "until the controller accepted")
        XCTAssertEqual(machine.handle(.scanningEnabled), [])
        XCTAssertTrue(machine.isScanning)
        XCTAssertEqual(machine.handle(.startRequested), [], "already scanning")
        XCTAssertEqual(machine.handle(.stopRequested), [.disableScanning])
        XCTAssertEqual(machine.handle(.stopRequested), [], "stopped once")
        XCTAssertFalse(machine.isScanning)
    }

    func testReportsMergePerDeviceInTheOrderFirstHeardAndAStartForgetsThem() {
        var machine = ScanFlowMachine()
        _ = machine.handle(.startRequested)
        _ = machine.handle(.scanningEnabled)
        _ = machine.handle(report(peer, named, rssi: -60))
        _ = machine.handle(report(other, rssi: 127))
        _ = machine.handle(report(peer, [0x02, 0x0A, 0x00], scanResponse: true, rssi: 127))
        var merged = heard(peer, named, rssi: -60)
        merged.scanResponseData = AdvertisingData(bytes: [0x02, 0x0A, 0x00])
        XCTAssertEqual(machine.advertisements, [merged, heard(other, rssi: -127)],
                       "the scan response joins its device; an unknown RSSI (127) is kept out")
        _ = machine.handle(.stopRequested)
        XCTAssertEqual(machine.advertisements.count, 2, "results outlive the stop")
        _ = machine.handle(report(other, rssi: -40))
        XCTAssertEqual(machine.advertisements.last?.rssi, -40, "a report after the stop still counts")
        XCTAssertEqual(machine.handle(.startRequested), [.enableScanning])
        XCTAssertEqual(machine.advertisements, [])
    }

    func testWaitEndsWithTheFirstMatchingDeviceAndCancelsItsTimer() {
        var machine = ScanFlowMachine()
        _ = machine.handle(.startRequested)
        _ = machine.handle(.scanningEnabled)
        XCTAssertEqual(machine.handle(.waitStarted(1, timeout: .seconds(5), match: address(peer))),
                       [.startTimer(1, after: .seconds(5))])
        XCTAssertEqual(machine.handle(.waitStarted(2, timeout: .seconds(5), match: { $0.name == "DFU" })),
                       [.startTimer(2, after: .seconds(5))])
        XCTAssertEqual(machine.handle(report(other)), [], "nobody's device")
        XCTAssertEqual(machine.handle(report(peer, [0x02, 0x01, 0x06])),
                       [.cancelTimer(1), .complete(1, heard(peer, [0x02, 0x01, 0x06]))])
        XCTAssertEqual(machine.handle(report(other, named)),
                       [.cancelTimer(2), .complete(2, heard(other, named))], "matched as merged")
        XCTAssertEqual(machine.waitingCount, 0)
        XCTAssertEqual(machine.handle(report(peer)), [], "late reports are nobody's")
        XCTAssertEqual(machine.handle(.timerFired(1)), [], "a late timer is ignored")
    }

    func testDeviceAlreadyHeardEndsTheWaitAtOnce() {
        var machine = ScanFlowMachine()
        _ = machine.handle(.startRequested)
        _ = machine.handle(report(other))
        _ = machine.handle(report(peer))
        XCTAssertEqual(machine.handle(.waitStarted(1, timeout: .seconds(5), match: { _ in true })),
                       [.complete(1, heard(other))], "the first heard, no timer")
    }

    func testTimeoutAndCancellationEndTheWaitWithNothing() {
        var machine = ScanFlowMachine()
        _ = machine.handle(.startRequested)
        _ = machine.handle(.waitStarted(1, timeout: .milliseconds(100), match: address(peer)))
        _ = machine.handle(.waitStarted(2, timeout: .seconds(60), match: address(peer)))
        XCTAssertEqual(machine.handle(.timerFired(1)), [.complete(1, nil)])
        XCTAssertEqual(machine.handle(.waitCancelled(2)), [.cancelTimer(2), .complete(2, nil)])
        XCTAssertEqual(machine.handle(.waitCancelled(2)), [], "once")
        XCTAssertEqual(machine.handle(report(peer)), [], "too late for both")
    }

    func testAWaitOutlivesAStop() {
        var machine = ScanFlowMachine()
        _ = machine.handle(.startRequested)
        _ = machine.handle(.scanningEnabled)
        _ = machine.handle(.waitStarted(1, timeout: .seconds(5), match: address(peer)))
        XCTAssertEqual(machine.handle(.stopRequested), [.disableScanning], "a connection stops the scan")
        XCTAssertEqual(machine.handle(report(peer)), [.cancelTimer(1), .complete(1, heard(peer))])
    }

    func testHostClosedEndsEveryWaitAndLaterOnes() {
        var machine = ScanFlowMachine()
        _ = machine.handle(.startRequested)
        _ = machine.handle(.scanningEnabled)
        _ = machine.handle(report(other))
        _ = machine.handle(.waitStarted(1, timeout: .seconds(5), match: address(peer)))
        _ = machine.handle(.waitStarted(2, timeout: .seconds(5), match: address(peer)))
        XCTAssertEqual(machine.handle(.hostClosed), [.cancelTimer(1), .complete(1, nil), .cancelTimer(2), .complete(2, nil)])
        XCTAssertEqual(machine.handle(.hostClosed), [], "closed once")
        XCTAssertEqual(machine.handle(report(peer)), [], "late reports are ignored")
        XCTAssertEqual(machine.advertisements, [heard(other)], "what was heard stays readable")
        XCTAssertEqual(machine.handle(.waitStarted(3, timeout: .seconds(5), match: address(peer))), [.complete(3, nil)])
        XCTAssertEqual(machine.handle(.stopRequested), [.disableScanning],
                       "it was scanning: the stop command is asked for, and fails with the host's error")
        XCTAssertEqual(machine.handle(.stopRequested), [])
        XCTAssertEqual(machine.handle(.startRequested), [.enableScanning], "the start command fails likewise")
    }
}
