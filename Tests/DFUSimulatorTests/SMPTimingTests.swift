import DFUBytes
import DFUGATT
@testable import DFUSimulator
import XCTest

/// `sim:mcumgr-smp` on the clock, as Zephyr and MCUboot behave: the reset delay, the swap, the
/// boot, command faults, and a fleet's next attempt during a swap.
final class SMPTimingTests: XCTestCase {
    private let image = SMPTestSupport.image(payloadSize: 100_000)

    func testSwapTimeGrowsWithTheImageAndTheKeyOverridesIt() throws {
        let settings = SMPServerSettings()
        // One 4 KiB sector: three erases (85 ms) and three writes (4096 x 10.75 us).
        XCTAssertEqual(settings.swapTime(bytes: 4096), (.milliseconds(85) + .nanoseconds(10_750 * 4096)) * 3)
        XCTAssertEqual(settings.swapTime(bytes: 300 * 1024), settings.swapTime(bytes: 4096) * 75)
        XCTAssertGreaterThan(settings.swapTime(bytes: 300 * 1024), .seconds(29), "~30 s for 300 KiB on an nRF52840")
        let configured = try SimulatorConfiguration(parsing: "mcumgr-smp?swap-ms-per-kib=10&reset-delay-ms=100&boot-ms=2000")
        let device = try XCTUnwrap(try SimulatedDeviceCatalog.makeWorld(configured).peripherals.first as? SMPServerDevice)
        XCTAssertEqual(device.server.settings.swapTime(bytes: 300 * 1024), .seconds(3))
        XCTAssertEqual(device.server.settings.resetDelay, .milliseconds(100))
        XCTAssertEqual(device.server.settings.bootTime, .seconds(2))
        let defaults = try XCTUnwrap(try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "mcumgr-smp"))
            .peripherals.first as? SMPServerDevice)
        XCTAssertEqual(defaults.server.settings.resetDelay, .milliseconds(250), "Zephyr's CONFIG_MCUMGR_GRP_OS_RESET_MS")
        XCTAssertEqual(defaults.server.settings.bootTime, .seconds(1))
        XCTAssertNil(defaults.server.settings.swapPerKiB)
    }

    func testTheDeviceIsSilentWhileMCUbootSwapsThenBootsTheImageUnconfirmed() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        exchange.uploadImage(image.bytes)
        exchange.send(SMPTestSupport.testState(hash: image.hash, confirm: false))
        exchange.send(SMPTestSupport.resetRequest)
        let resetAt = try? XCTUnwrap(device.nextTimer)
        XCTAssertEqual(device.fireTimers(at: resetAt ?? .zero).count, 1)
        let swap = device.server.settings.swapTime(bytes: image.bytes.count)
        XCTAssertEqual(device.lastBoot, .swapped(bytes: image.bytes.count))
        XCTAssertEqual(device.nextTimer, (resetAt ?? .zero) + swap + .seconds(1))
        XCTAssertFalse(device.isAdvertising(at: (resetAt ?? .zero) + swap), "swapping: no advertising")
        XCTAssertEqual(device.slots.primary.hash, image.hash)
        exchange.runTimers()
        XCTAssertTrue(device.isAdvertising(at: exchange.now))
        let primary = exchange.imageList().first { $0["slot"] == 0 }
        XCTAssertEqual(primary?["active"], true)
        XCTAssertEqual(primary?["confirmed"], false, "a test swap boots the image unconfirmed")
    }

    func testAClientThatReconnectsAtOnceLandsOnTheOldImageAndLosesTheLink() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "mcumgr-smp"))
        let device = try XCTUnwrap(world.peripherals.first as? SMPServerDevice)
        let client = try await SMPLinkClient.connect(world)
        let bufferSize = device.server.settings.bufferSize
        _ = try await client.upload(image.bytes, chunk: bufferSize - 100, window: 3)
        _ = try await client.request(group: 1, command: 0, body: .textMap(["hash": .bytes(image.hash), "confirm": false]))
        _ = try await client.request(group: 0, command: 5)
        await client.link.disconnect()
        // The reset is due 250 ms after the request; the device still advertises and answers (a
        // client that discovers services again would not even get that far).
        let again = SMPLinkClient(cached: try world.connectLink(to: device.advertisement.address, timeout: .seconds(1)),
                                  characteristic: client.characteristic)
        let list = try await again.request(group: 1, command: 0, op: 0)
        let primary = list?["images"]?.arrayValue?.first { $0["slot"] == 0 }
        XCTAssertEqual(primary?["hash"], .bytes(SMPServerDevice.factoryImage.hash), "still the old image")
        XCTAssertTrue(device.isResetPending)
        // A confirm now reaches the old image, which refuses it: a test swap is pending.
        let confirm = try await again.request(group: 1, command: 0, body: .textMap(["confirm": true]))
        XCTAssertEqual(confirm?["err"]?["rc"], 28)
        do {
            _ = try await again.nextResponse(timeout: .seconds(5))
            XCTFail("the reboot drops the new link")
        } catch {
            XCTAssertEqual((error as? GATTError)?.kind, .disconnected)
        }
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertTrue(device.isBooting)
        XCTAssertThrowsError(try world.connectLink(to: device.advertisement.address, timeout: .seconds(2)),
                             "swapping 100 KiB takes longer than 2 s") { error in
            XCTAssertEqual((error as? GATTError)?.kind, .connectionFailed)
        }
        let third = try await SMPLinkClient.connect(world, timeout: .seconds(30))
        let booted = try await third.request(group: 1, command: 0, op: 0)
        let running = booted?["images"]?.arrayValue?.first { $0["slot"] == 0 }
        XCTAssertEqual(running?["hash"], .bytes(image.hash))
        XCTAssertEqual(running?["confirmed"], false)
    }

    func testDisconnectOnDropsTheLinkBeforeTheRequestIsHandled() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "mcumgr-smp?fault=disconnect-on:upload:2"))
        let device = try XCTUnwrap(world.peripherals.first as? SMPServerDevice)
        let client = try await SMPLinkClient.connect(world)
        do {
            _ = try await client.upload(image.bytes, chunk: 2000, window: 1)
            XCTFail("the link drops on the second upload request")
        } catch {
            XCTAssertEqual((error as? GATTError)?.detail,
                           "simulated fault: disconnect on upload #2, before the device processed it")
        }
        XCTAssertEqual(device.server.uploadedByteCount, 2000 - 0, "only the first chunk was taken")
        XCTAssertEqual(device.server.requestLog.count, 1, "the second request never reached the server")
        let again = try await SMPLinkClient.connect(world)
        let answer = try await again.request(group: 0, command: 0, body: .textMap(["d": "y"]))
        XCTAssertEqual(answer?["r"], "y", "the fault fires once")
    }

    func testDisconnectAfterCommandLeavesTheClientNotKnowingTheImageIsMarked() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(
            SimulatorConfiguration(parsing: "mcumgr-smp?fault=disconnect-after-command:image_test"))
        let device = try XCTUnwrap(world.peripherals.first as? SMPServerDevice)
        let client = try await SMPLinkClient.connect(world)
        _ = try await client.upload(image.bytes, chunk: 2000, window: 1)
        do {
            _ = try await client.request(group: 1, command: 0, body: .textMap(["hash": .bytes(image.hash), "confirm": false]))
            XCTFail("no answer: the link drops")
        } catch {
            XCTAssertEqual((error as? GATTError)?.detail,
                           "simulated fault: disconnect after image_test #1 was processed, before its answer")
        }
        XCTAssertEqual(device.slots.swapType, .test, "yet the device marked the image")
    }

    func testDisconnectAfterResetStillReboots() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "mcumgr-smp?fault=disconnect-after-command:reset"))
        let device = try XCTUnwrap(world.peripherals.first as? SMPServerDevice)
        let client = try await SMPLinkClient.connect(world)
        do {
            _ = try await client.request(group: 0, command: 5)
            XCTFail("no answer")
        } catch {
            XCTAssertEqual((error as? GATTError)?.kind, .disconnected)
        }
        XCTAssertTrue(device.isResetPending)
        let heard = try await world.waitForAdvertisement(from: device.advertisement.address, timeout: .seconds(5))
        XCTAssertNotNil(heard, "advertising during the reset delay: heard at once")
        try await client.link.sleep(until: world.now + .seconds(2))
        XCTAssertEqual(device.rebootCount, 1)
    }

    func testAFleetsNextAttemptWaitsOutASwapStillUnderWay() async throws {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "mcumgr-smp?fleet=1"))
        let address = fleet.advertisements[0].address
        let first = try XCTUnwrap(fleet.world(for: address, attempt: 1, concurrency: 1))
        let device = try XCTUnwrap(fleet.device(at: address) as? SMPServerDevice)
        let client = try await SMPLinkClient.connect(first)
        _ = try await client.upload(image.bytes, chunk: 2000, window: 1)
        _ = try await client.request(group: 1, command: 0, body: .textMap(["hash": .bytes(image.hash), "confirm": false]))
        _ = try await client.request(group: 0, command: 5)
        try await client.link.sleep(until: first.now + .seconds(1))  // rebooted: swapping
        let bootsAt = try XCTUnwrap(device.nextTimer)
        let left = bootsAt - first.now
        let second = try XCTUnwrap(fleet.world(for: address, attempt: 2, concurrency: 1))
        XCTAssertEqual(device.nextTimer, second.now + left, "the swap keeps the time it had left")
        XCTAssertFalse(device.isAdvertising(at: second.now))
        _ = try second.connectLink(to: address, timeout: .seconds(60))
        XCTAssertEqual(second.now, left + second.settings.connectDelay)
    }
}
