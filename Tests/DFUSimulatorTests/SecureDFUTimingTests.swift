import DFUBytes
import DFUGATT
import DFUPackage
import DFUSimulator
import XCTest

/// `sim:nordic-secure-dfu` as an SDK 15-17 bootloader behaves on the clock: receipts on an
/// object's last packet, the last EXECUTE and the reset after it, activation, the inactivity
/// and continuation timeouts, ABORT, power glitches and command faults.
final class SecureDFUTimingTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    private let firmware = (0..<40).map { UInt8($0) }
    private let flash = FlashTiming()
    private var settingsWrite: Duration { flash.pageErase + flash.writePerByte * 1024 }

    private func make(_ query: String = "") throws -> (NordicSecureDFUDevice, SecureDFUClient) {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "nordic-secure-dfu?mtu=23" + query))
        let device = try XCTUnwrap(world.peripherals.first as? NordicSecureDFUDevice)
        return (device, try SecureDFUClient(world: world, address: device.advertisement.address))
    }

    /// Init packet created, streamed and executed; returns its answer.
    private func sendInitPacket(_ client: SecureDFUClient, for image: [UInt8]) async throws -> [UInt8]? {
        let packet = HandEncodedInitPacket.application(for: image).bytes
        _ = try await client.command(SecureDFUClient.create(1, size: packet.count))
        try await client.stream(packet)
        return try await client.command([0x04])
    }

    func testAReceiptFollowsTheLastPacketOfAnObject() async throws {
        let (_, client) = try make()
        _ = try await sendInitPacket(client, for: firmware)
        _ = try await client.command([0x02, 0x02, 0x00])  // PRN 2
        _ = try await client.command(SecureDFUClient.create(2, size: 40))
        try await client.stream(firmware)  // two 20-byte packets: the second ends the object
        let receipt = try await client.notification(within: .seconds(1))
        XCTAssertEqual(receipt, [0x60, 0x03, 0x01] + SecureDFUClient.le32(40) + SecureDFUClient.le32(crcOf: firmware),
                       "ble_dfu_req_handler_callback counts every write, the last of the object too")
    }

    func testTheLastExecuteAnswersThenTheSettingsThenTheLinkEndsThenTheResetComes() async throws {
        let (device, client) = try make()
        _ = try await sendInitPacket(client, for: firmware)
        _ = try await client.command(SecureDFUClient.create(2, size: 40))
        try await client.stream(firmware)
        try await client.link.write([0x04], to: SecureDFUClient.controlPoint, type: .withResponse)
        let answer = try await client.link.nextNotification(until: client.link.now + .seconds(2))
        XCTAssertEqual(answer?.value, [0x60, 0x04, 0x01])
        XCTAssertTrue(device.isBooting, "DFU_BLE_RESETTING_SOON: no advertising from here on")
        XCTAssertFalse(device.isAdvertising(at: client.link.now))
        let resetAt = try XCTUnwrap(device.nextTimer)
        let ended = await client.linkEnd()
        XCTAssertEqual(ended, "the bootloader ended the link to reset")
        let endedAt = client.link.now
        // The answer was ready when the device handled EXECUTE (flash idle by then, the hash of
        // 40 bytes); the settings are written and backed up, the link ends at the next event,
        // 200 ms pass, the backup is written once more, then the reset.
        // Each leaves at the first connection event (15 ms apart) at or after it is due.
        let answeredAt = try XCTUnwrap(answer?.receivedAt)
        XCTAssertGreaterThan(endedAt - answeredAt, settingsWrite * 2 - .milliseconds(15))
        XCTAssertLessThan(endedAt - answeredAt, settingsWrite * 2 + .milliseconds(15))
        XCTAssertGreaterThan(resetAt - endedAt, .milliseconds(200) + settingsWrite - .milliseconds(15))
        XCTAssertLessThanOrEqual(resetAt - endedAt, .milliseconds(200) + settingsWrite)
        XCTAssertEqual(device.rebootCount, 0, "not reset yet")
        XCTAssertEqual(device.activatedCount, 0)
        try client.reconnect()
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertEqual(device.activatedCount, 1)
        // Silent for the activation (the copy of one page, eight-page steps with their settings,
        // the CRC) and the boot, then connected 100 ms later.
        let activation = flash.writeCost(offset: 0, count: 40) + settingsWrite * 2 + flash.hashPerByte * 40
        XCTAssertEqual(client.link.now - resetAt, activation + .milliseconds(1_100) + .milliseconds(100))
        XCTAssertEqual(device.mode, .bootloader, "no buttonless application: DFU mode again")
    }

    func testButtonlessDeviceRunsTheNewApplicationAfterActivation() async throws {
        let (device, client) = try make("&buttonless=1")
        let world = client.world
        try await client.enterBootloader(.unbonded)
        try client.reconnect(to: device.bootloaderAddress)
        _ = try await sendInitPacket(client, for: firmware)
        _ = try await client.command(SecureDFUClient.create(2, size: 40))
        try await client.stream(firmware)
        _ = try await client.command([0x04])
        _ = await client.linkEnd()
        let heard = try await world.waitForAdvertisement(from: address, timeout: .seconds(10))
        XCTAssertEqual(heard?.name, "Nordic_Buttonless")
        XCTAssertEqual(device.mode, .application)
        XCTAssertEqual(device.activatedCount, 1)
    }

    func testAFailedValidationResetsIntoTheOldApplication() async throws {
        let (device, client) = try make("&buttonless=bonded")
        try await client.enterBootloader(.bonded)
        try client.reconnect()
        _ = try await sendInitPacket(client, for: Array("other".utf8))
        _ = try await client.command(SecureDFUClient.create(2, size: 5))
        try await client.stream(Array("hello".utf8))
        let refused = try await client.command([0x04])
        XCTAssertEqual(refused, [0x60, 0x04, 0x0B, 0x0C])
        _ = await client.linkEnd()
        try client.reconnect()
        XCTAssertEqual(device.mode, .application, "bank 0 kept the old application")
        XCTAssertEqual(device.installed, [])
    }

    func testASoftDeviceUpdateWaitsTenSecondsForTheNextImage() async throws {
        let (device, client) = try make()
        let sdbl = try NordicSamples.entry("sd_bl.bin", in: "sd-bl-app-signed.zip")
        let value = try await client.flash(initPacket: try NordicSamples.entry("sd_bl.dat", in: "sd-bl-app-signed.zip"),
                                           firmware: sdbl)
        XCTAssertEqual(value, [0x60, 0x04, 0x01])
        _ = await client.linkEnd()
        try client.reconnect(timeout: .seconds(60))
        let connectedAt = client.link.now
        do {
            _ = try await client.link.nextNotification(until: client.link.now + .seconds(60))
            XCTFail("the continuation timeout resets the bootloader")
        } catch {
            XCTAssertEqual(error.detail, "the bootloader's inactivity timeout reset it (10.0 seconds without DFU progress)")
        }
        XCTAssertEqual(client.link.now - connectedAt, .seconds(10) - SimulatedWorld.advertisementHeardAfter,
                       "10 s from the end of the boot; the connection took 100 ms of them")
        XCTAssertEqual(device.rebootCount, 2)
    }

    func testAnIdleBootloaderResetsAfter120SecondsAndACreateRestartsTheTimer() async throws {
        let (device, client) = try make()
        try await client.link.sleep(until: .seconds(100))
        let packet = HandEncodedInitPacket.application(for: firmware).bytes
        _ = try await client.command(SecureDFUClient.create(1, size: packet.count))  // DFU_STARTED at ~100 s
        let startedAt = client.link.now
        do {
            _ = try await client.link.nextNotification(until: .seconds(400))
            XCTFail("120 s without progress")
        } catch {
            XCTAssertEqual(error.detail, "the bootloader's inactivity timeout reset it (120.0 seconds without DFU progress)")
        }
        let resetAt = client.link.now
        XCTAssertGreaterThan(resetAt, .seconds(200), "the create restarted the timer")
        XCTAssertLessThanOrEqual(resetAt - startedAt, .seconds(120))
        XCTAssertEqual(device.rebootCount, 1)
    }

    func testAbortEndsTheLinkAndResets200MillisecondsLater() async throws {
        let (device, client) = try make()
        let answer = try await client.command([0x0C])
        XCTAssertEqual(answer, [0x60, 0x0C, 0x01])
        let resetAt = try XCTUnwrap(device.nextTimer)
        let ended = await client.linkEnd()
        XCTAssertEqual(ended, "the bootloader ended the link to reset")
        XCTAssertLessThanOrEqual(resetAt - client.link.now, .milliseconds(200))
        XCTAssertGreaterThan(resetAt - client.link.now, .milliseconds(170))
    }

    func testAPowerGlitchGoesBackToTheLastExecutedObject() async throws {
        let image = (0..<6000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let (device, client) = try make("&mtu=247&fault=reboot-after:5000")
        _ = try await sendInitPacket(client, for: image)
        _ = try await client.command(SecureDFUClient.create(2, size: 4096))
        try await client.stream(Array(image[0..<4096]))
        _ = try await client.command([0x03])
        _ = try await client.command([0x04])
        _ = try await client.command(SecureDFUClient.create(2, size: 1904))
        do {
            try await client.stream(Array(image[4096...]))
            _ = try await client.command([0x03])
            XCTFail("the device resets once 5000 bytes are in")
        } catch {
            XCTAssertEqual((error as? GATTError)?.detail, "simulated fault: the device reset (power glitch) after 5000 bytes")
        }
        XCTAssertEqual(device.rebootCount, 1)
        try client.reconnect()
        let select = try await client.command([0x06, 0x02])
        XCTAssertEqual(select.map { Array($0[7..<11]) }, SecureDFUClient.le32(4096), "the executed object survived")
    }

    func testCommandFaultsByOpcodeAndObjectType() async throws {
        let (device, client) = try make("&fault=disconnect-on:create_data&fault=disconnect-after-command:execute_command")
        let packet = HandEncodedInitPacket.application(for: firmware).bytes
        _ = try await client.command(SecureDFUClient.create(1, size: packet.count))
        try await client.stream(packet)
        do {
            _ = try await client.command([0x04])
            XCTFail("disconnect-after-command:execute_command")
        } catch {
            XCTAssertEqual((error as? GATTError)?.detail,
                           "simulated fault: disconnect after execute_command #1 was processed, before its answer")
        }
        XCTAssertTrue(device.hasAcceptedInitPacket, "the init packet was executed all the same")
        try client.reconnect()
        do {
            _ = try await client.command(SecureDFUClient.create(2, size: 40))
            XCTFail("disconnect-on:create_data")
        } catch {
            XCTAssertEqual((error as? GATTError)?.detail, "simulated fault: disconnect on create_data #1, before the device processed it")
        }
        XCTAssertEqual(device.commandLog.last, .execute, "the create never reached the bootloader")
    }

    func testDisconnectAfterEnterBootloaderStillEntersIt() async throws {
        let (device, client) = try make("&buttonless=1&fault=disconnect-after-command:enter_bootloader")
        do {
            try await client.enterBootloader(.unbonded)
            XCTFail("no answer")
        } catch {
            XCTAssertEqual((error as? GATTError)?.kind, .disconnected)
        }
        XCTAssertEqual(device.mode, .bootloader)
        try client.reconnect(to: device.bootloaderAddress, timeout: .seconds(5))
        XCTAssertEqual(device.advertisement.name, "DfuTarg")
    }

    func testBootTimeKey() throws {
        let (device, _) = try make("&boot-ms=250")
        XCTAssertEqual(device.bootTime, .milliseconds(250))
        let (defaults, _) = try make()
        XCTAssertEqual(defaults.bootTime, .milliseconds(1_100))
    }
}
