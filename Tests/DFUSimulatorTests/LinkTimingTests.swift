import DFUGATT
import DFUSimulator
import XCTest

/// The connection-event rules of `SimulatedLink`, on a 15 ms interval whose events fall at
/// 115, 130, 145, ... ms (the link is up at 100 ms).
final class LinkTimingTests: XCTestCase {
    private let characteristic = ScriptedPeripheral.characteristic
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    func testConnectingTakesTheConnectDelay() throws {
        let (world, link) = try SimulatorTestSupport.connect(ScriptedPeripheral())
        XCTAssertEqual(world.now, ms(100))
        XCTAssertEqual(link.now, ms(100))
        XCTAssertTrue(link.isConnected)
        XCTAssertEqual(link.statistics, LinkStatistics())
    }

    func testWriteWithResponseCompletesTwoIntervalsAfterItIsQueued() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.write([0x01], to: characteristic, type: .withResponse)
        XCTAssertEqual(device.writeTimes, [ms(115)], "the request goes out in the next event")
        XCTAssertEqual(link.now, ms(130), "the write response comes in the event after")
        try await link.write([0x02], to: characteristic, type: .withResponse)
        XCTAssertEqual(device.writeTimes, [ms(115), ms(145)])
        XCTAssertEqual(link.now, ms(160))
        XCTAssertEqual(link.statistics.connectionEvents, 4)
        XCTAssertEqual(link.statistics.packetsToPeripheral, 2)
        XCTAssertEqual(link.statistics.packetsToCentral, 2)
        XCTAssertEqual(link.statistics.valueBytesToPeripheral, 2)
        XCTAssertEqual(link.statistics.valueBytesToCentral, 0)
    }

    func testWriteQueuedBetweenEventsGoesOutAtTheNextEvent() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.sleep(until: ms(107))
        XCTAssertEqual(link.now, ms(107))
        try await link.write([0x01], to: characteristic, type: .withResponse)
        XCTAssertEqual(device.writeTimes, [ms(115)])
        XCTAssertEqual(link.now, ms(130))
    }

    func testIdleEventsAreSkippedAfterSleeping() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.sleep(until: ms(1_000))
        XCTAssertEqual(link.statistics.connectionEvents, 0, "nothing to carry: no event is counted")
        try await link.write([0x01], to: characteristic, type: .withResponse)
        // Events stay on the 100 + 15k grid: 1000 is not on it, the next ones are 1015 and 1030.
        XCTAssertEqual(device.writeTimes, [ms(1_015)])
        XCTAssertEqual(link.now, ms(1_030))
    }

    func testThirteenWritesWithoutResponseTakeThreeEventsAtSixPacketsPerEvent() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(
            device, settings: SimulatorTestSupport.settings(packetsPerEvent: 6, transmitBuffers: 32))
        for index in 0..<13 {
            try await link.write([UInt8(index)], to: characteristic, type: .withoutResponse)
        }
        XCTAssertEqual(link.now, ms(100), "with free buffers, writes without response return at once")
        XCTAssertEqual(device.writes.count, 0)
        try await link.sleep(until: ms(144))
        XCTAssertEqual(link.statistics.connectionEvents, 2)
        XCTAssertEqual(link.statistics.packetsToPeripheral, 12)
        try await link.sleep(until: ms(1_000))
        XCTAssertEqual(link.statistics.connectionEvents, 3)
        XCTAssertEqual(link.statistics.packetsToPeripheral, 13)
        XCTAssertEqual(device.writeTimes, Array(repeating: ms(115), count: 6) + Array(repeating: ms(130), count: 6) + [ms(145)])
        XCTAssertEqual(device.writes.map(\.value), (0..<13).map { [UInt8($0)] }, "in order")
        XCTAssertEqual(link.now, ms(1_000))
    }

    func testPeripheralSendsAtMostPacketsPerEventToo() async throws {
        let device = ScriptedPeripheral(answersPerWrite: 13)
        let (_, link) = try SimulatorTestSupport.connect(device, settings: SimulatorTestSupport.settings(packetsPerEvent: 6))
        try await link.write([0xA0], to: characteristic, type: .withoutResponse)
        var arrivals: [Duration] = []
        var values: [[UInt8]] = []
        while let notification = try await link.nextNotification(until: ms(1_000)) {
            arrivals.append(notification.receivedAt)
            values.append(notification.value)
        }
        XCTAssertEqual(arrivals, Array(repeating: ms(130), count: 6) + Array(repeating: ms(145), count: 6) + [ms(160)])
        XCTAssertEqual(values, (0..<13).map { [0xA0, UInt8($0)] })
        XCTAssertEqual(link.statistics.packetsToCentral, 13)
        XCTAssertEqual(link.statistics.valueBytesToCentral, 26)
    }

    func testAnswerIsNeverInTheEventOfItsRequest() async throws {
        let device = ScriptedPeripheral(processingTime: .zero, answersPerWrite: 1)
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.write([0x01], to: characteristic, type: .withoutResponse)
        let notification = try await link.nextNotification(until: ms(1_000))
        XCTAssertEqual(device.writeTimes, [ms(115)])
        XCTAssertEqual(notification?.receivedAt, ms(130))
        XCTAssertEqual(link.now, ms(130))
    }

    func testProcessingTimeDelaysTheAnswerToTheFirstEventAtOrAfterIt() async throws {
        // The write arrives at 115 ms; the answer is ready at 115 + processing time.
        let cases: [(processing: Int, arrival: Int)] = [(0, 130), (15, 130), (16, 145), (40, 160), (45, 160), (46, 175)]
        for (processing, arrival) in cases {
            let device = ScriptedPeripheral(processingTime: ms(processing), answersPerWrite: 1)
            let (_, link) = try SimulatorTestSupport.connect(device)
            try await link.write([0x01], to: characteristic, type: .withoutResponse)
            let notification = try await link.nextNotification(until: ms(10_000))
            XCTAssertEqual(notification?.receivedAt, ms(arrival), "processing \(processing) ms")
            XCTAssertEqual(link.now, ms(arrival), "processing \(processing) ms")
        }
    }

    func testWriteResponseIsNotHeldBackByTheDevicesProcessing() async throws {
        let device = ScriptedPeripheral(processingTime: ms(40), answersPerWrite: 1)
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.write([0x01], to: characteristic, type: .withResponse)
        XCTAssertEqual(link.now, ms(130))
        let notification = try await link.nextNotification(until: ms(10_000))
        XCTAssertEqual(notification?.receivedAt, ms(160))
    }

    func testASlowAnswerDoesNotHoldBackALaterWriteResponse() async throws {
        // The device takes 500 ms to answer the first write; the write response to the second
        // one is ready at once and must not wait behind that answer.
        let device = ScriptedPeripheral(processingTime: ms(500), answersPerWrite: 1)
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.write([0x01], to: characteristic, type: .withoutResponse)
        try await link.write([0x02], to: characteristic, type: .withResponse)
        XCTAssertEqual(device.writeTimes, [ms(115), ms(115)])
        XCTAssertEqual(link.now, ms(130))
        let first = try await link.nextNotification(until: ms(10_000))
        let second = try await link.nextNotification(until: ms(10_000))
        // Both answers are ready at 615 ms: event 625 ms, in the order the writes arrived.
        XCTAssertEqual(first, GATTNotification(valueHandle: 3, value: [0x01, 0x00], receivedAt: ms(625)))
        XCTAssertEqual(second, GATTNotification(valueHandle: 3, value: [0x02, 0x00], receivedAt: ms(625)))
    }

    func testAnswersLeaveInTheOrderTheyAreReady() async throws {
        let device = ScriptedPeripheral(processingTime: ms(500), answersPerWrite: 1)
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.write([0x01], to: characteristic, type: .withResponse)  // answer ready at 615 ms
        device.processingTime = ms(100)
        try await link.write([0x02], to: characteristic, type: .withResponse)  // arrives at 145, ready at 245
        XCTAssertEqual(link.now, ms(160))
        let first = try await link.nextNotification(until: ms(10_000))
        let second = try await link.nextNotification(until: ms(10_000))
        XCTAssertEqual(first, GATTNotification(valueHandle: 3, value: [0x02, 0x00], receivedAt: ms(250)))
        XCTAssertEqual(second, GATTNotification(valueHandle: 3, value: [0x01, 0x00], receivedAt: ms(625)))
    }

    func testNextNotificationReturnsNilAtTheDeadlineWithTheClockOnIt() async throws {
        let device = ScriptedPeripheral(processingTime: ms(500), answersPerWrite: 1)
        let (_, link) = try SimulatorTestSupport.connect(device)
        let none = try await link.nextNotification(until: ms(250))
        XCTAssertNil(none)
        XCTAssertEqual(link.now, ms(250))

        try await link.write([0x07], to: characteristic, type: .withoutResponse)
        // Ready at 265 + 500 = 765 ms; the first event at or after it is 775 ms.
        let early = try await link.nextNotification(until: ms(700))
        XCTAssertNil(early)
        XCTAssertEqual(link.now, ms(700))
        XCTAssertEqual(device.writeTimes, [ms(265)])
        let late = try await link.nextNotification(until: ms(2_000))
        XCTAssertEqual(late, GATTNotification(valueHandle: 3, value: [0x07, 0x00], receivedAt: ms(775)))
        XCTAssertEqual(link.now, ms(775))
    }

    func testNotificationsThatArrivedEarlierAreKeptInOrder() async throws {
        let device = ScriptedPeripheral(answersPerWrite: 1)
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.write([0x01], to: characteristic, type: .withResponse)  // answer ready with the response
        try await link.write([0x02], to: characteristic, type: .withResponse)
        XCTAssertEqual(link.now, ms(160))
        let first = try await link.nextNotification(until: ms(160))
        let second = try await link.nextNotification(until: ms(160))
        XCTAssertEqual(first?.value, [0x01, 0x00])
        XCTAssertEqual(first?.receivedAt, ms(130))
        XCTAssertEqual(second?.value, [0x02, 0x00])
        XCTAssertEqual(second?.receivedAt, ms(160))
    }

    func testFullTransmitBuffersMakeWriteWithoutResponseWait() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(
            device, settings: SimulatorTestSupport.settings(packetsPerEvent: 1, transmitBuffers: 2))
        var returnedAt: [Duration] = []
        for index in 0..<5 {
            try await link.write([UInt8(index)], to: characteristic, type: .withoutResponse)
            returnedAt.append(link.now)
        }
        // Two buffers fill at once; each later write waits for an event to free one.
        XCTAssertEqual(returnedAt, [ms(100), ms(100), ms(115), ms(130), ms(145)])
        XCTAssertEqual(device.writeTimes, [ms(115), ms(130), ms(145)])
    }

    func testWriteLongerThanMTUMinusThreeIsRefused() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device, settings: SimulatorTestSupport.settings(mtu: 23))
        XCTAssertEqual(link.mtu, 23)
        do {
            try await link.write([UInt8](repeating: 0, count: 21), to: characteristic, type: .withResponse)
            XCTFail("a 21-byte write at ATT_MTU 23 must be refused")
        } catch {
            XCTAssertEqual(error.kind, .unsupported)
            XCTAssertEqual(error.detail, "a write of 21 bytes exceeds ATT_MTU-3 (20)")
        }
        XCTAssertEqual(link.now, ms(100), "a refused write costs no time")
        try await link.write([UInt8](repeating: 0, count: 20), to: characteristic, type: .withoutResponse)
        try await link.sleep(until: ms(200))
        XCTAssertEqual(device.writes.map(\.value.count), [20])
    }

    func testReadTakesTwoIntervalsAndUnreadableHandleIsAnATTError() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device)
        let value = try await link.read(characteristic)
        XCTAssertEqual(value, [0xAB])
        XCTAssertEqual(link.now, ms(130))
        var other = characteristic
        other.valueHandle = 9
        do {
            _ = try await link.read(other)
            XCTFail("handle 9 is not readable")
        } catch {
            XCTAssertEqual(error.kind, .attError(code: 0x02, handle: 9))
        }
        XCTAssertEqual(link.now, ms(160))
    }

    func testSubscribingWritesTheConfigurationDescriptor() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device)
        try await link.setNotifications(enabled: true, for: characteristic)
        XCTAssertEqual(link.now, ms(130))
        XCTAssertEqual(device.writes.map(\.value), [[0x01, 0x00]])
    }

    func testTheCentralDisconnectingEndsTheLink() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device)
        await link.disconnect()
        XCTAssertFalse(link.isConnected)
        XCTAssertEqual(device.endedAt, [ms(100)])
        do {
            try await link.write([0x01], to: characteristic, type: .withResponse)
            XCTFail("the link is down")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertEqual(error.detail, "the central disconnected")
        }
    }

    func testDiscoveryReturnsTheServicesAfterEightIntervals() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device)
        let services = try await link.discoverServices()
        XCTAssertEqual(services, device.services)
        XCTAssertEqual(link.now, ms(220))
    }

    func testUnknownAddressFailsToConnectAfterTheTimeout() throws {
        let world = SimulatedWorld(name: "sim:test", peripherals: [ScriptedPeripheral()])
        XCTAssertThrowsError(try world.connectLink(to: DeviceAddress(string: "11:22:33:44:55:66")!, timeout: .seconds(2))) { error in
            XCTAssertEqual((error as? GATTError)?.kind, .connectionFailed)
        }
        XCTAssertEqual(world.now, .seconds(2))
    }
}
