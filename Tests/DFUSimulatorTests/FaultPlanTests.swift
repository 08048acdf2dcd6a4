import DFUGATT
import DFUSimulator
import XCTest

/// Each fault of a `FaultPlan`, injected by the link whatever the device.
final class FaultPlanTests: XCTestCase {
    private let characteristic = ScriptedPeripheral.characteristic
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    /// `drop-write:N` and `corrupt-write:N` count writes without response only: the 2nd is lost,
    /// the 4th arrives with its last byte inverted; a write request between them is untouched.
    func testDropAndCorruptWriteCountWritesWithoutResponse() async throws {
        let configuration = try SimulatorConfiguration(parsing: "vendor-ctrlpt?fault=drop-write:2&fault=corrupt-write:4")
        XCTAssertEqual(configuration.faults.dropWrites, [2])
        XCTAssertEqual(configuration.faults.corruptWrites, [4])
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device, faults: configuration.faults)
        for value: UInt8 in 1...3 { try await link.write([value, 0x10], to: characteristic, type: .withoutResponse) }
        try await link.write([0xAA, 0x10], to: characteristic, type: .withResponse)
        for value: UInt8 in 4...5 { try await link.write([value, 0x10], to: characteristic, type: .withoutResponse) }
        try await link.sleep(until: link.now + ms(100))
        XCTAssertEqual(device.writes.map(\.value), [[1, 0x10], [3, 0x10], [0xAA, 0x10], [4, 0xEF], [5, 0x10]])
    }

    func testDisconnectAfterBytesFiresOnceAndLaterCallsThrowDisconnected() async throws {
        var faults = FaultPlan()
        faults.disconnectAfterBytes = [30]
        let device = ScriptedPeripheral()
        let (world, link) = try SimulatorTestSupport.connect(device, faults: faults)
        try await link.write([UInt8](repeating: 1, count: 20), to: characteristic, type: .withResponse)
        XCTAssertEqual(link.now, ms(130))
        do {
            try await link.write([UInt8](repeating: 2, count: 20), to: characteristic, type: .withResponse)
            XCTFail("the link drops once 30 bytes were received")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertEqual(error.detail, "simulated fault: disconnect after 30 bytes")
            XCTAssertEqual(error.address, "C0:00:00:00:00:01")
        }
        XCTAssertFalse(link.isConnected)
        XCTAssertEqual(device.writes.count, 2, "the second write reached the device before the drop")
        XCTAssertEqual(device.endedAt, [ms(145)])
        for attempt in 0..<2 {
            do {
                _ = try await link.nextNotification(until: ms(10_000))
                XCTFail("attempt \(attempt): the link is down")
            } catch {
                XCTAssertEqual(error.kind, .disconnected)
            }
        }
        do {
            try await link.write([0x03], to: characteristic, type: .withoutResponse)
            XCTFail("the link is down")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
        }

        // A new connection carries on past the threshold: the fault does not fire again.
        let again = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        for _ in 0..<3 {
            try await again.write([UInt8](repeating: 4, count: 20), to: characteristic, type: .withResponse)
        }
        XCTAssertTrue(again.isConnected)
        XCTAssertEqual(device.writes.count, 5)
    }

    func testSeveralDisconnectThresholdsEachFireOnce() async throws {
        var faults = FaultPlan()
        faults.disconnectAfterBytes = [10, 25]
        let device = ScriptedPeripheral()
        let (world, first) = try SimulatorTestSupport.connect(device, faults: faults)
        await XCTAssertDisconnects(try await first.write([UInt8](repeating: 0, count: 10), to: self.characteristic, type: .withResponse))
        let second = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await second.write([UInt8](repeating: 0, count: 10), to: characteristic, type: .withResponse)  // 20 bytes in all
        await XCTAssertDisconnects(try await second.write([UInt8](repeating: 0, count: 10), to: self.characteristic, type: .withResponse))
        let third = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await third.write([UInt8](repeating: 0, count: 100), to: characteristic, type: .withResponse)
        XCTAssertEqual(device.endedAt.count, 2)
    }

    func testDropNotificationLosesTheNthNotification() async throws {
        var faults = FaultPlan()
        faults.dropNotifications = [2]
        let device = ScriptedPeripheral(answersPerWrite: 3)
        let (_, link) = try SimulatorTestSupport.connect(device, faults: faults)
        try await link.write([0x10], to: characteristic, type: .withoutResponse)
        var values: [[UInt8]] = []
        while let notification = try await link.nextNotification(until: ms(1_000)) { values.append(notification.value) }
        XCTAssertEqual(values, [[0x10, 0x00], [0x10, 0x02]])
        XCTAssertEqual(link.statistics.packetsToCentral, 3, "the notification was sent, then lost")
    }

    func testCorruptNotificationFlipsTheLastByte() async throws {
        var faults = FaultPlan()
        faults.corruptNotifications = [1, 3]
        let device = ScriptedPeripheral(answersPerWrite: 3)
        let (_, link) = try SimulatorTestSupport.connect(device, faults: faults)
        try await link.write([0x10, 0x20], to: characteristic, type: .withoutResponse)
        var values: [[UInt8]] = []
        while let notification = try await link.nextNotification(until: ms(1_000)) { values.append(notification.value) }
        XCTAssertEqual(values, [[0x10, 0x20, 0xFF], [0x10, 0x20, 0x01], [0x10, 0x20, 0xFD]])
    }

    func testNotificationFaultsCountAcrossConnections() async throws {
        var faults = FaultPlan()
        faults.dropNotifications = [2]
        let device = ScriptedPeripheral(answersPerWrite: 1)
        let (world, first) = try SimulatorTestSupport.connect(device, faults: faults)
        try await first.write([0x01], to: characteristic, type: .withoutResponse)
        let one = try await first.nextNotification(until: ms(1_000))
        XCTAssertEqual(one?.value, [0x01, 0x00])
        await first.disconnect()
        let second = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await second.write([0x02], to: characteristic, type: .withoutResponse)
        let lost = try await second.nextNotification(until: second.now + .seconds(1))
        XCTAssertNil(lost, "the world's second notification is dropped")
    }

    func testUnresponsiveDeviceMakesWriteWithResponseTimeOutAfterTheATTTimeout() async throws {
        var faults = FaultPlan()
        faults.unresponsiveAfterBytes = 10
        let device = ScriptedPeripheral(answersPerWrite: 1)
        let (_, link) = try SimulatorTestSupport.connect(
            device, settings: SimulatorTestSupport.settings(attTimeout: .seconds(2)), faults: faults)
        try await link.write([UInt8](repeating: 0, count: 10), to: characteristic, type: .withResponse)
        XCTAssertEqual(link.now, ms(130))
        let answer = try await link.nextNotification(until: ms(1_000))
        XCTAssertEqual(answer?.receivedAt, ms(130), "the first 10 bytes were still answered")
        do {
            try await link.write([0x01], to: characteristic, type: .withResponse)
            XCTFail("the device stopped answering")
        } catch {
            XCTAssertEqual(error.kind, .timeout)
            XCTAssertEqual(error.detail, "write request to \(ScriptedPeripheral.characteristic.uuid) unanswered after 2.0 seconds")
        }
        XCTAssertEqual(link.now, ms(130) + .seconds(2), "the timeout is on the virtual clock")
        XCTAssertEqual(device.writes.count, 2, "the device still received the write")
        XCTAssertTrue(link.isConnected)
        let none = try await link.nextNotification(until: link.now + .seconds(1))
        XCTAssertNil(none, "nor does it notify")
    }

    func testUnresponsiveDeviceMakesReadTimeOut() async throws {
        var faults = FaultPlan()
        faults.unresponsiveAfterBytes = 1
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(
            device, settings: SimulatorTestSupport.settings(attTimeout: .seconds(3)), faults: faults)
        try await link.write([0x01], to: characteristic, type: .withoutResponse)
        do {
            _ = try await link.read(characteristic)
            XCTFail("the device stopped answering")
        } catch {
            XCTAssertEqual(error.kind, .timeout)
        }
        XCTAssertEqual(link.now, ms(100) + .seconds(3))
    }

    func testDuplicateNotificationDeliversTheNthTwice() async throws {
        var faults = FaultPlan()
        faults.duplicateNotifications = [2]
        let device = ScriptedPeripheral(answersPerWrite: 3)
        let (_, link) = try SimulatorTestSupport.connect(device, faults: faults)
        try await link.write([0x10], to: characteristic, type: .withoutResponse)
        var values: [[UInt8]] = []
        while let notification = try await link.nextNotification(until: ms(1_000)) { values.append(notification.value) }
        XCTAssertEqual(values, [[0x10, 0x00], [0x10, 0x01], [0x10, 0x01], [0x10, 0x02]])
        XCTAssertEqual(link.statistics.packetsToCentral, 3, "sent once, heard twice")
    }

    func testReorderNotificationDeliversTheNthAfterTheNext() async throws {
        var faults = FaultPlan()
        faults.reorderNotifications = [2]
        let device = ScriptedPeripheral(answersPerWrite: 2)
        let (_, link) = try SimulatorTestSupport.connect(device, faults: faults)
        try await link.write([0x10], to: characteristic, type: .withoutResponse)  // notifications 1 and 2 at 130 ms
        try await link.write([0x20], to: characteristic, type: .withoutResponse)  // 3 and 4
        var received: [([UInt8], Duration)] = []
        while let notification = try await link.nextNotification(until: ms(1_000)) {
            received.append((notification.value, notification.receivedAt))
        }
        XCTAssertEqual(received.map(\.0), [[0x10, 0x00], [0x20, 0x00], [0x10, 0x01], [0x20, 0x01]])
        XCTAssertEqual(received[2].1, received[1].1, "released when the following one arrives")
    }

    func testAReorderedNotificationWithNoneAfterItIsLostWithTheLink() async throws {
        var faults = FaultPlan()
        faults.reorderNotifications = [1]
        let device = ScriptedPeripheral(answersPerWrite: 1)
        let (world, link) = try SimulatorTestSupport.connect(device, faults: faults)
        try await link.write([0x10], to: characteristic, type: .withoutResponse)
        let none = try await link.nextNotification(until: ms(1_000))
        XCTAssertNil(none, "held back: nothing followed it yet")
        await link.disconnect()
        let again = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await again.write([0x20], to: characteristic, type: .withoutResponse)
        let next = try await again.nextNotification(until: again.now + .seconds(1))
        XCTAssertEqual(next?.value, [0x20, 0x00])
        let after = try await again.nextNotification(until: again.now + .seconds(1))
        XCTAssertNil(after, "the held notification went with the first link")
    }

    func testRebootAfterBytesPowerCyclesTheDeviceOnce() async throws {
        var faults = FaultPlan()
        faults.rebootAfterBytes = [30]
        let device = TimedPeripheral(bootTime: ms(800))
        let world = SimulatedWorld(name: "sim:test", settings: SimulatorTestSupport.settings(), faults: faults,
                                   peripherals: [device])
        let link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await link.write([UInt8](repeating: 1, count: 20), to: TimedPeripheral.characteristic, type: .withResponse)
        do {
            try await link.write([UInt8](repeating: 2, count: 20), to: TimedPeripheral.characteristic, type: .withResponse)
            XCTFail("the device resets once 30 bytes are in")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertEqual(error.detail, "simulated fault: the device reset (power glitch) after 30 bytes")
        }
        XCTAssertEqual(device.powerCycles, [ms(145)])
        XCTAssertEqual(device.writes.count, 2, "the write that crossed the threshold reached the device")
        XCTAssertEqual(device.ended, [], "the device reset: it is not told the link ended")
        let again = try world.connectLink(to: device.advertisement.address, timeout: .seconds(2))
        XCTAssertEqual(world.now, ms(1_045), "connectable once booted (945 ms), 100 ms to connect")
        try await again.write([UInt8](repeating: 3, count: 40), to: TimedPeripheral.characteristic, type: .withResponse)
        XCTAssertEqual(device.powerCycles.count, 1, "each threshold fires once")
    }

    func testALinkLossTheDeviceReportsDropsTheLinkAtOnceWithItsReason() async throws {
        let device = TimedPeripheral()
        device.loseLinkOnWrite = 0x02
        let world = SimulatedWorld(name: "sim:test", settings: SimulatorTestSupport.settings(), peripherals: [device])
        let link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await link.write([0x01], to: TimedPeripheral.characteristic, type: .withoutResponse)
        do {
            try await link.write([0x02], to: TimedPeripheral.characteristic, type: .withResponse)
            XCTFail("the link is lost on the second write")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertEqual(error.detail, "test: link lost on 2")
        }
        XCTAssertEqual(link.now, ms(115), "in the event that carried the write")
        XCTAssertEqual(device.ended, [ms(115)], "a lost link is a link end the device is told about")
        await XCTAssertDisconnects(try await { _ = try await link.nextNotification(until: .seconds(1)) }(),
                                   "the answer to the first write, queued in the same event, is lost too")
    }

    func testEmptyPlanIsEmpty() {
        XCTAssertTrue(FaultPlan().isEmpty)
        var plan = FaultPlan()
        plan.busyCommands = [1]
        XCTAssertFalse(plan.isEmpty)
    }

    private func XCTAssertDisconnects(_ body: @autoclosure () async throws -> Void, _ message: String = "",
                                      file: StaticString = #filePath, line: UInt = #line) async {
        do {
            try await body()
            XCTFail("expected a disconnect: \(message)", file: file, line: line)
        } catch let error as GATTError {
            XCTAssertEqual(error.kind, .disconnected, file: file, line: line)
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
    }
}
