import DFUGATT
import DFUSimulator
import XCTest

/// Device timers on the world's virtual clock: reboots that end links, advertising gaps that
/// scans, connects and `waitForAdvertisement` wait out, and timers carried to a new world.
/// Link settings as in `SimulatorTestSupport`: connecting takes 100 ms, events every 15 ms.
final class WorldTimingTests: XCTestCase {
    private let characteristic = TimedPeripheral.characteristic
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    private func world(_ peripherals: [any SimulatedPeripheral], faults: FaultPlan = FaultPlan()) -> SimulatedWorld {
        SimulatedWorld(name: "sim:test", settings: SimulatorTestSupport.settings(), faults: faults, peripherals: peripherals)
    }

    private func assertDisconnected(_ body: () async throws -> Void, detail: String,
                                    file: StaticString = #filePath, line: UInt = #line) async {
        do {
            try await body()
            XCTFail("expected a disconnect", file: file, line: line)
        } catch let error as GATTError {
            XCTAssertEqual(error.kind, .disconnected, file: file, line: line)
            XCTAssertEqual(error.detail, detail, file: file, line: line)
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
    }

    // MARK: - Links

    func testARebootWhileTheCentralWaitsForANotificationEndsTheLinkThen() async throws {
        let device = TimedPeripheral(resetAt: ms(400))
        let world = world([device])
        let link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        await assertDisconnected({ _ = try await link.nextNotification(until: .seconds(10)) },
                                 detail: "the device rebooted (test)")
        XCTAssertEqual(world.now, ms(400), "the link dropped when the device rebooted, not at the deadline")
        XCTAssertFalse(link.isConnected)
        XCTAssertEqual(device.resets, [ms(400)])
        XCTAssertEqual(device.ended, [], "a device that reset is not told its link ended")
    }

    func testARebootDueWithAnEventRunsFirst() async throws {
        // The write would go out in the event at 115 ms; the device reboots at 115 ms.
        let device = TimedPeripheral(resetAt: ms(115))
        let link = try world([device]).connectLink(to: device.advertisement.address, timeout: .seconds(1))
        await assertDisconnected({ try await link.write([0x01], to: self.characteristic, type: .withResponse) },
                                 detail: "the device rebooted (test)")
        XCTAssertTrue(device.writes.isEmpty, "the write never reached the device")
        XCTAssertEqual(link.now, ms(115))
    }

    func testAnswersQueuedBeforeTheRebootStillArrive() async throws {
        let device = TimedPeripheral(resetAt: ms(140))
        let link = try world([device]).connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await link.write([0x07], to: characteristic, type: .withResponse)  // arrives at 115, answered at 130
        let answer = try await link.nextNotification(until: .seconds(1))
        XCTAssertEqual(answer?.value, [0x07])
        XCTAssertEqual(answer?.receivedAt, ms(130))
        await assertDisconnected({ _ = try await link.nextNotification(until: .seconds(1)) },
                                 detail: "the device rebooted (test)")
        XCTAssertEqual(link.now, ms(140))
    }

    func testSleepLetsTheRebootHappenAndTheNextCallReportsIt() async throws {
        let device = TimedPeripheral(resetAt: ms(200))
        let link = try world([device]).connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await link.sleep(until: ms(1_000))
        XCTAssertEqual(link.now, ms(1_000), "sleeping does not stop at the drop, as on a radio")
        XCTAssertFalse(link.isConnected)
        await assertDisconnected({ try await link.write([0x01], to: self.characteristic, type: .withoutResponse) },
                                 detail: "the device rebooted (test)")
    }

    func testARebootDuringDiscoveryFailsIt() async throws {
        let device = TimedPeripheral(resetAt: ms(150))
        let link = try world([device]).connectLink(to: device.advertisement.address, timeout: .seconds(1))
        await assertDisconnected({ _ = try await link.discoverServices() }, detail: "the device rebooted (test)")
        XCTAssertEqual(link.now, ms(220), "discovery's time passed on the clock")
    }

    // MARK: - Connecting

    func testConnectWaitsUntilTheDeviceAdvertises() throws {
        let device = TimedPeripheral(silentUntil: ms(2_000))
        let world = world([device])
        let link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(5))
        XCTAssertEqual(world.now, ms(2_100), "advertising from 2 s, connected 100 ms later")
        XCTAssertTrue(link.isConnected)
        XCTAssertEqual(device.started, [ms(2_100)])
    }

    func testConnectFailsWhenTheDeviceDoesNotAdvertiseWithinTheTimeout() throws {
        let device = TimedPeripheral(silentUntil: ms(2_000))
        let world = world([device])
        XCTAssertThrowsError(try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))) { error in
            let error = error as? GATTError
            XCTAssertEqual(error?.kind, .connectionFailed)
            XCTAssertEqual(error?.detail, "the device did not advertise within the timeout (1.0 seconds): it may still be rebooting")
        }
        XCTAssertEqual(world.now, ms(1_000))
        XCTAssertTrue(device.started.isEmpty)
    }

    func testConnectToAnUnknownAddressStillSaysWhatIsThere() throws {
        let device = TimedPeripheral()
        let world = world([device])
        XCTAssertThrowsError(try world.connectLink(to: DeviceAddress(string: "C0:00:00:00:00:99")!, timeout: .seconds(2))) { error in
            XCTAssertEqual((error as? GATTError)?.detail, "no simulated device advertises at this address (this world has: "
                + "C0:00:00:00:00:02; leave out /ADDRESS to take the first matching device)")
        }
        XCTAssertEqual(world.now, ms(2_000))
    }

    func testADeviceThatResetsWhileTheConnectionIsSetUpIsConnectedOnceItAdvertisesAgain() throws {
        let device = TimedPeripheral(resetAt: ms(50), bootTime: ms(500))
        let world = world([device])
        let link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(5))
        XCTAssertEqual(device.resets, [ms(50)])
        XCTAssertEqual(world.now, ms(650), "silent from 50 to 550 ms, connected 100 ms later")
        XCTAssertTrue(link.isConnected)
    }

    func testADeviceDuringItsResetDelayAcceptsAConnectionThatItsRebootThenDrops() async throws {
        let device = TimedPeripheral(resetAt: ms(350))
        let world = world([device])
        let first = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await first.sleep(until: ms(150))
        await first.disconnect()
        let second = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        XCTAssertEqual(world.now, ms(250), "still advertising until its reboot")
        try await second.write([0x05], to: characteristic, type: .withResponse)
        let answer = try await second.nextNotification(until: .seconds(1))
        XCTAssertEqual(answer?.value, [0x05], "and answers on the new link")
        await assertDisconnected({ _ = try await second.nextNotification(until: .seconds(1)) },
                                 detail: "the device rebooted (test)")
        XCTAssertEqual(world.now, ms(350))
    }

    // MARK: - Listening

    func testWaitForAdvertisementHearsTheDeviceOnceItAdvertises() async throws {
        let device = TimedPeripheral(silentUntil: ms(2_000))
        let world = world([device])
        let heard = try await world.waitForAdvertisement(from: device.advertisement.address, timeout: .seconds(5))
        XCTAssertEqual(heard?.name, "TIMED")
        XCTAssertEqual(world.now, ms(2_100), "one advertising interval after it started")
    }

    func testWaitForAdvertisementGivesUpAtTheTimeout() async throws {
        let device = TimedPeripheral(silentUntil: ms(2_000))
        let world = world([device])
        let heard = try await world.waitForAdvertisement(from: device.advertisement.address, timeout: .seconds(1))
        XCTAssertNil(heard)
        XCTAssertEqual(world.now, ms(1_000))
        let unknown = try await world.waitForAdvertisement(from: DeviceAddress(string: "C0:00:00:00:00:77")!, timeout: .seconds(3))
        XCTAssertNil(unknown)
        XCTAssertEqual(world.now, ms(4_000))
    }

    func testAConnectedDeviceIsNotHeardUntilItsRebootEndsTheLinkAndItBoots() async throws {
        let device = TimedPeripheral(resetAt: ms(300), bootTime: ms(1_000))
        let world = world([device])
        let link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        let heard = try await world.waitForAdvertisement(from: device.advertisement.address, timeout: .seconds(5))
        XCTAssertNotNil(heard)
        XCTAssertFalse(link.isConnected)
        XCTAssertEqual(world.now, ms(1_400), "reboot at 300 ms, silent 1 s, heard 100 ms later")
    }

    func testScanHearsEveryDeviceThatAdvertisesWithinItsTimeout() async throws {
        let awake = TimedPeripheral(address: "C0:00:00:00:00:0A")
        let booting = TimedPeripheral(address: "C0:00:00:00:00:0B", silentUntil: ms(3_000))
        let world = world([awake, booting])
        let short = try await world.scan(timeout: .seconds(2))
        XCTAssertEqual(short.map(\.address.description), ["C0:00:00:00:00:0A"])
        XCTAssertEqual(world.now, ms(2_000), "one device never heard: the scan runs to its timeout")
        let long = try await world.scan(timeout: .seconds(5))
        XCTAssertEqual(long.map(\.address.description), ["C0:00:00:00:00:0A", "C0:00:00:00:00:0B"])
        XCTAssertEqual(world.now, ms(3_100), "everyone heard: the scan ends one interval after the last")
    }

    func testScanOfAdvertisingDevicesTakesOneAdvertisingInterval() async throws {
        let world = world([TimedPeripheral()])
        let seen = try await world.scan(timeout: .seconds(5))
        XCTAssertEqual(seen.count, 1)
        XCTAssertEqual(world.now, ms(100))
    }

    // MARK: - Worlds

    func testAdoptedDevicesKeepTheTimeTheirTimersHadLeft() async throws {
        let device = TimedPeripheral(resetAt: ms(5_000), bootTime: ms(700))
        let first = world([device])
        let link = try first.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        try await link.sleep(until: ms(4_000))
        let second = world([device])
        second.adoptDevices(from: first)
        XCTAssertFalse(link.isConnected, "the old world's link ended")
        XCTAssertEqual(device.ended, [ms(4_000)])
        XCTAssertEqual(device.resetAt, ms(1_000), "1 s was left at 4 s in the old world: due at 1 s in the new one")
        let again = try second.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        await assertDisconnected({ _ = try await again.nextNotification(until: .seconds(10)) },
                                 detail: "the device rebooted (test)")
        XCTAssertEqual(second.now, ms(1_000))
        XCTAssertEqual(device.resets, [ms(1_000)])
        let heard = try await second.waitForAdvertisement(from: device.advertisement.address, timeout: .seconds(10))
        XCTAssertNotNil(heard)
        XCTAssertEqual(second.now, ms(1_800), "silent 700 ms after the reboot, heard 100 ms later")
    }
}
