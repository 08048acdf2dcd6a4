import DFUBytes
import DFUGATT
import DFUSimulator
import XCTest

/// The vendor control-point device at the byte level: commands framed as
/// [u16 LE payload length][payload], cut into ATT_MTU-3 (20-byte) writes with response;
/// answers come back as frames cut into notifications. Golden frames are written out by hand.
final class VendorControlPointDeviceTests: XCTestCase {
    /// "hello": CRC32 0x3610A686, SHA-256 2cf24dba...9824 (Python zlib / hashlib).
    private let image: [UInt8] = Array("hello".utf8)
    private let imageCRC: [UInt8] = [0x86, 0xA6, 0x10, 0x36]
    private let imageSHA: [UInt8] = [
        0x2C, 0xF2, 0x4D, 0xBA, 0x5F, 0xB0, 0xA3, 0x0E, 0x26, 0xE8, 0x3B, 0x2A, 0xC5, 0xB9, 0xE2, 0x9E,
        0x1B, 0x16, 0x1E, 0x5C, 0x1F, 0xA7, 0x42, 0x5E, 0x73, 0x04, 0x33, 0x62, 0x93, 0x8B, 0x98, 0x24,
    ]
    /// CRC32 of "he": 0xD1256687.
    private let headCRC: [UInt8] = [0x87, 0x66, 0x25, 0xD1]

    private var device: VendorControlPointDevice!
    private var world: SimulatedWorld!
    private var link: SimulatedLink!
    private var writesSent = 0
    private var notificationsReceived = 0

    override func setUp() {
        super.setUp()
        device = VendorControlPointDevice(address: DeviceAddress(string: "C0:FF:EE:00:00:01")!,
                                          flash: FlashTiming(writePerByte: .zero, pageErase: .zero, hashPerByte: .zero))
        world = SimulatedWorld(name: "sim:vendor-ctrlpt", settings: LinkSettings(mtu: 23), peripherals: [device])
        link = try? world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
    }

    private var controlPoint: GATTCharacteristic {
        GATTCharacteristic(service: VendorControlPointDevice.serviceUUID, uuid: VendorControlPointDevice.controlPointUUID,
                           valueHandle: 3, properties: [.write, .notify])
    }

    // MARK: - Byte helpers

    private func frame(_ payload: [UInt8]) -> [UInt8] {
        [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
    }

    /// Writes `bytes` in 20-byte segments, with response.
    private func writeSegments(_ bytes: [UInt8]) async throws {
        var start = 0
        while start < bytes.count {
            let end = min(start + 20, bytes.count)
            try await link.write(Array(bytes[start..<end]), to: controlPoint, type: .withResponse)
            writesSent += 1
            start = end
        }
    }

    /// Collects notifications until one whole frame arrived; returns the frame (header included).
    private func readFrame(within timeout: Duration = .seconds(2)) async throws -> [UInt8]? {
        var received: [UInt8] = []
        let deadline = link.now + timeout
        while true {
            if received.count >= 2 {
                let length = Int(received[0]) | Int(received[1]) << 8
                if received.count >= 2 + length {
                    XCTAssertEqual(received.count, 2 + length, "no bytes beyond the frame")
                    return received
                }
            }
            guard let notification = try await link.nextNotification(until: deadline) else {
                return received.isEmpty ? nil : received
            }
            XCTAssertEqual(notification.valueHandle, 3)
            XCTAssertLessThanOrEqual(notification.value.count, 20, "a notification carries at most ATT_MTU-3 bytes")
            notificationsReceived += 1
            received += notification.value
        }
    }

    private func exchange(_ payload: [UInt8]) async throws -> [UInt8]? {
        try await writeSegments(frame(payload))
        return try await readFrame()
    }

    private func startPayload(size: UInt32 = 5, crc: [UInt8]? = nil) -> [UInt8] {
        [0x01] + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
            + (crc ?? imageCRC) + imageSHA
    }

    private func dataPayload(offset: UInt8, _ bytes: [UInt8]) -> [UInt8] {
        [0x02, offset, 0x00, 0x00, 0x00] + bytes
    }

    // MARK: - Commands

    func testStatusOnAFreshDevice() async throws {
        let response = try await exchange([0x05])
        XCTAssertEqual(response, [0x2A, 0x00, 0x85, 0x00] + [UInt8](repeating: 0, count: 40))
        XCTAssertEqual(notificationsReceived, 3, "44 bytes in 20-byte notifications: 20 + 20 + 4")
        XCTAssertEqual(device.commandLog, [0x05])
    }

    func testStartAnswersWithTheMaximumChunk() async throws {
        let request = frame(startPayload())
        XCTAssertEqual(request.count, 43)
        XCTAssertEqual(Array(request.prefix(7)), [0x29, 0x00, 0x01, 0x05, 0x00, 0x00, 0x00])
        try await writeSegments(request)
        XCTAssertEqual(writesSent, 3)
        let response = try await readFrame()
        XCTAssertEqual(response, [0x04, 0x00, 0x81, 0x00, 0x00, 0x10])
    }

    func testStatusDuringAnUploadReportsOffsetCRCAndAnnouncedSHA() async throws {
        _ = try await exchange(startPayload())
        let data = try await exchange(dataPayload(offset: 0, [0x68, 0x65]))
        XCTAssertEqual(data, [0x06, 0x00, 0x82, 0x00, 0x02, 0x00, 0x00, 0x00])
        let status = try await exchange([0x05])
        XCTAssertEqual(status, [0x2A, 0x00, 0x85, 0x00, 0x02, 0x00, 0x00, 0x00] + headCRC + imageSHA)
    }

    func testTooLargeImageIsRefused() async throws {
        let response = try await exchange(startPayload(size: (1 << 20) + 1))
        XCTAssertEqual(response, [0x04, 0x00, 0x81, 0x03, 0x00, 0x00])
    }

    func testStartWithAShortBodyIsABadLength() async throws {
        let response = try await exchange([0x01, 0x05, 0x00, 0x00, 0x00])
        XCTAssertEqual(response, [0x04, 0x00, 0x81, 0x01, 0x00, 0x00])
    }

    func testDataBeforeStartIsBadState() async throws {
        let response = try await exchange(dataPayload(offset: 0, [0x68]))
        XCTAssertEqual(response, [0x06, 0x00, 0x82, 0x02, 0x00, 0x00, 0x00, 0x00])
    }

    func testDataAtTheWrongOffsetGivesTheDevicesOffset() async throws {
        _ = try await exchange(startPayload())
        let skipped = try await exchange(dataPayload(offset: 2, [0x6C, 0x6C, 0x6F]))
        XCTAssertEqual(skipped, [0x06, 0x00, 0x82, 0x04, 0x00, 0x00, 0x00, 0x00])
        _ = try await exchange(dataPayload(offset: 0, [0x68, 0x65]))
        let gap = try await exchange(dataPayload(offset: 3, [0x6C, 0x6F]))
        XCTAssertEqual(gap, [0x06, 0x00, 0x82, 0x04, 0x02, 0x00, 0x00, 0x00])
        XCTAssertEqual(device.receivedByteCount, 2)
    }

    func testDataPastTheAnnouncedSizeIsABadLength() async throws {
        _ = try await exchange(startPayload())
        let response = try await exchange(dataPayload(offset: 0, [1, 2, 3, 4, 5, 6]))
        XCTAssertEqual(response, [0x06, 0x00, 0x82, 0x01, 0x00, 0x00, 0x00, 0x00])
    }

    func testDuplicateChunkIsAcknowledgedWithoutStoringItTwice() async throws {
        _ = try await exchange(startPayload())
        let first = try await exchange(dataPayload(offset: 0, [0x68, 0x65]))
        let again = try await exchange(dataPayload(offset: 0, [0x68, 0x65]))
        XCTAssertEqual(first, [0x06, 0x00, 0x82, 0x00, 0x02, 0x00, 0x00, 0x00])
        XCTAssertEqual(again, [0x06, 0x00, 0x82, 0x00, 0x02, 0x00, 0x00, 0x00])
        XCTAssertEqual(device.receivedByteCount, 2)
        let rest = try await exchange(dataPayload(offset: 2, [0x6C, 0x6C, 0x6F]))
        XCTAssertEqual(rest, [0x06, 0x00, 0x82, 0x00, 0x05, 0x00, 0x00, 0x00])
    }

    func testVerifyWithTheWrongCRCIsACRCMismatchWithTheActualValues() async throws {
        _ = try await exchange(startPayload(crc: [0, 0, 0, 0]))
        _ = try await exchange(dataPayload(offset: 0, image))
        let response = try await exchange([0x03])
        XCTAssertEqual(response, [0x26, 0x00, 0x83, 0x05] + imageCRC + imageSHA)
        let activate = try await exchange([0x04])
        XCTAssertEqual(activate, [0x02, 0x00, 0x84, 0x02], "not verified")
        XCTAssertNil(device.installed)
    }

    func testVerifyBeforeTheLastByteIsBadState() async throws {
        _ = try await exchange(startPayload())
        _ = try await exchange(dataPayload(offset: 0, [0x68]))
        let response = try await exchange([0x03])
        XCTAssertEqual(response, [0x26, 0x00, 0x83, 0x02] + [UInt8](repeating: 0, count: 36))
    }

    func testActivateBeforeVerifyIsBadState() async throws {
        _ = try await exchange(startPayload())
        _ = try await exchange(dataPayload(offset: 0, image))
        let response = try await exchange([0x04])
        XCTAssertEqual(response, [0x02, 0x00, 0x84, 0x02])
        XCTAssertTrue(link.isConnected)
    }

    func testUnknownOpcode() async throws {
        let response = try await exchange([0x7F, 0x01, 0x02])
        XCTAssertEqual(response, [0x02, 0x00, 0xFF, 0x09])
        XCTAssertEqual(device.commandLog, [0x7F])
    }

    func testEmptyFrameIsABadLength() async throws {
        let response = try await exchange([])
        XCTAssertEqual(response, [0x02, 0x00, 0x80, 0x01])
    }

    func testFrameWithAnImpossibleLengthIsDroppedAndTheDeviceCarriesOn() async throws {
        // 0xFFFF announced: beyond the device's 8192-byte limit.
        try await writeSegments([0xFF, 0xFF, 0x05, 0x05, 0x05])
        let nothing = try await readFrame(within: .milliseconds(500))
        XCTAssertNil(nothing)
        XCTAssertTrue(link.isConnected)
        XCTAssertEqual(device.commandLog, [])
        let status = try await exchange([0x05])
        XCTAssertEqual(status.map { Array($0.prefix(4)) }, [0x2A, 0x00, 0x85, 0x00])
    }

    func testTwoFramesInOneWriteAreBothAnswered() async throws {
        try await link.write(frame([0x05]) + frame([0x7E]), to: controlPoint, type: .withResponse)
        let first = try await readFrame()
        let second = try await readFrame()
        XCTAssertEqual(first.map { Array($0.prefix(4)) }, [0x2A, 0x00, 0x85, 0x00])
        XCTAssertEqual(second, [0x02, 0x00, 0xFE, 0x09])
    }

    func testFullUploadInstallsTheImageAndRebootsAfterActivate() async throws {
        let start = try await exchange(startPayload())
        XCTAssertEqual(start, [0x04, 0x00, 0x81, 0x00, 0x00, 0x10])
        _ = try await exchange(dataPayload(offset: 0, image))
        let verify = try await exchange([0x03])
        XCTAssertEqual(verify, [0x26, 0x00, 0x83, 0x00] + imageCRC + imageSHA)
        let activate = try await exchange([0x04])
        XCTAssertEqual(activate, [0x02, 0x00, 0x84, 0x00])
        let answeredAt = link.now
        XCTAssertTrue(link.isConnected, "the answer goes out; the reboot comes 100 ms after activate was handled")
        XCTAssertEqual(device.installed?.data, image)
        XCTAssertEqual(device.installed?.sha256, imageSHA)
        XCTAssertNil(device.runningImage, "still the factory image until the reboot")
        let info = try await exchange([0x06])
        XCTAssertEqual(info, [0x26, 0x00, 0x86, 0x00] + [UInt8](repeating: 0, count: 36), "info: the running image")
        do {
            _ = try await link.nextNotification(until: link.now + .seconds(1))
            XCTFail("the reboot drops the link")
        } catch {
            XCTAssertEqual(error.detail, "the device rebooted (0.1 seconds after activate)")
        }
        XCTAssertLessThan(link.now - answeredAt, .milliseconds(100))
        XCTAssertEqual(device.runningImage?.data, image)
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertEqual(device.commandLog, [0x01, 0x02, 0x03, 0x04, 0x06])
        XCTAssertThrowsError(try world.connectLink(to: device.advertisement.address, timeout: .milliseconds(400)),
                             "booting for 500 ms: not advertising")
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        let booted = try await exchange([0x06])
        XCTAssertEqual(booted, [0x26, 0x00, 0x86, 0x00, 0x05, 0x00, 0x00, 0x00] + imageSHA, "info: the new image")
        let status = try await exchange([0x05])
        XCTAssertEqual(status, [0x2A, 0x00, 0x85, 0x00] + [UInt8](repeating: 0, count: 40), "activate ended the session")
    }

    func testStatusKeepsReportingTheWholeImageAfterVerifyUntilActivate() async throws {
        _ = try await exchange(startPayload())
        _ = try await exchange(dataPayload(offset: 0, image))
        _ = try await exchange([0x03])
        // The link drops between verify and activate: status shows the image is complete.
        await link.disconnect()
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        let status = try await exchange([0x05])
        XCTAssertEqual(status, [0x2A, 0x00, 0x85, 0x00, 0x05, 0x00, 0x00, 0x00] + imageCRC + imageSHA)
        let activate = try await exchange([0x04])
        XCTAssertEqual(activate, [0x02, 0x00, 0x84, 0x00], "still verified: activate is accepted")
    }

    func testAPowerGlitchKeepsTheSessionAndBootsTheActivatedImage() async throws {
        _ = try await exchange(startPayload())
        _ = try await exchange(dataPayload(offset: 0, [0x68, 0x65]))
        device.powerCycle(at: link.now)
        XCTAssertFalse(device.isAdvertising(at: link.now))
        XCTAssertEqual(device.nextTimer, link.now + .milliseconds(500))
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        let status = try await exchange([0x05])
        XCTAssertEqual(status, [0x2A, 0x00, 0x85, 0x00, 0x02, 0x00, 0x00, 0x00] + headCRC + imageSHA, "in flash")
    }

    func testTimingKeysAndCommandFaults() async throws {
        let configuration = try SimulatorConfiguration(parsing:
            "vendor-ctrlpt?mtu=23&reset-delay-ms=20&boot-ms=3000&fault=disconnect-on:verify"
            + "&fault=disconnect-after-command:status:2")
        let world = try SimulatedDeviceCatalog.makeWorld(configuration)
        let device = try XCTUnwrap(world.peripherals.first as? VendorControlPointDevice)
        XCTAssertEqual(device.timing, VendorControlPointDevice.Timing(resetDelay: .milliseconds(20), boot: .seconds(3)))
        XCTAssertEqual(VendorControlPointDevice.Timing(), .init(resetDelay: .milliseconds(100), boot: .milliseconds(500)))
        self.device = device
        self.world = world
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        _ = try await exchange([0x05])
        _ = try await exchange(startPayload())
        _ = try await exchange(dataPayload(offset: 0, image))
        do {
            _ = try await exchange([0x03])
            XCTFail("disconnect-on:verify")
        } catch {
            XCTAssertEqual((error as? GATTError)?.detail, "simulated fault: disconnect on verify #1, before the device processed it")
        }
        XCTAssertEqual(device.commandLog, [0x05, 0x01, 0x02], "verify was never processed")
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        do {
            _ = try await exchange([0x05])
            XCTFail("disconnect-after-command:status:2")
        } catch {
            XCTAssertEqual((error as? GATTError)?.detail,
                           "simulated fault: disconnect after status #2 was processed, before its answer")
        }
        XCTAssertEqual(device.commandLog, [0x05, 0x01, 0x02, 0x05], "the second status was processed")
    }

    func testDataAfterVerifyIsBadState() async throws {
        _ = try await exchange(startPayload())
        _ = try await exchange(dataPayload(offset: 0, image))
        _ = try await exchange([0x03])
        let response = try await exchange(dataPayload(offset: 0, image))
        XCTAssertEqual(response, [0x06, 0x00, 0x82, 0x02, 0x00, 0x00, 0x00, 0x00])
    }

    func testUploadStateSurvivesADisconnect() async throws {
        _ = try await exchange(startPayload())
        _ = try await exchange(dataPayload(offset: 0, [0x68, 0x65]))
        // Half a frame is in flight when the link drops: it is lost, the upload is not.
        try await link.write([0x2A], to: controlPoint, type: .withResponse)
        await link.disconnect()
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        let status = try await exchange([0x05])
        XCTAssertEqual(status, [0x2A, 0x00, 0x85, 0x00, 0x02, 0x00, 0x00, 0x00] + headCRC + imageSHA)
        let rest = try await exchange(dataPayload(offset: 2, [0x6C, 0x6C, 0x6F]))
        XCTAssertEqual(rest, [0x06, 0x00, 0x82, 0x00, 0x05, 0x00, 0x00, 0x00])
        let verify = try await exchange([0x03])
        XCTAssertEqual(verify.map { Array($0.prefix(4)) }, [0x26, 0x00, 0x83, 0x00])
    }

    func testBusyCommandAnswersBusyWithAFullLengthResponse() async throws {
        device = VendorControlPointDevice(address: DeviceAddress(string: "C0:FF:EE:00:00:02")!, busyCommands: [2])
        world = SimulatedWorld(name: "sim:vendor-ctrlpt", settings: LinkSettings(mtu: 23), peripherals: [device])
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        let first = try await exchange(startPayload())
        XCTAssertEqual(first, [0x04, 0x00, 0x81, 0x00, 0x00, 0x10])
        let busy = try await exchange(startPayload())
        XCTAssertEqual(busy, [0x04, 0x00, 0x81, 0x07, 0x00, 0x00])
        let third = try await exchange(dataPayload(offset: 0, [0x68]))
        XCTAssertEqual(third, [0x06, 0x00, 0x82, 0x00, 0x01, 0x00, 0x00, 0x00])
    }

    func testDataAnswerWaitsForTheFlashWrite() async throws {
        device = VendorControlPointDevice(address: DeviceAddress(string: "C0:FF:EE:00:00:03")!,
                                          flash: FlashTiming(writePerByte: .microseconds(10), pageErase: .milliseconds(85)))
        world = SimulatedWorld(name: "sim:vendor-ctrlpt", settings: LinkSettings(mtu: 247), peripherals: [device])
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(1))
        // A data frame before start: refused at once (no flash work), answered in the next event.
        try await link.write(frame(dataPayload(offset: 0, image)), to: controlPoint, type: .withResponse)
        XCTAssertEqual(link.now, .milliseconds(130))
        let refused = try await link.nextNotification(until: .seconds(1))
        XCTAssertEqual(refused?.value, [0x06, 0x00, 0x82, 0x02, 0x00, 0x00, 0x00, 0x00])
        XCTAssertEqual(refused?.receivedAt, .milliseconds(130))
        _ = try await exchange(startPayload())  // three 20-byte writes: answered at 220 ms
        XCTAssertEqual(link.now, .milliseconds(220))
        // The data frame reaches the device at 235 ms; erasing page 0 and writing 5 bytes takes
        // 85.05 ms, so the answer is ready at 320.05 ms and leaves in the event at 325 ms.
        try await link.write(frame(dataPayload(offset: 0, image)), to: controlPoint, type: .withResponse)
        let answer = try await link.nextNotification(until: .seconds(1))
        XCTAssertEqual(answer?.value, [0x06, 0x00, 0x82, 0x00, 0x05, 0x00, 0x00, 0x00])
        XCTAssertEqual(answer?.receivedAt, .milliseconds(325))
    }

    func testFlashWriteCost() {
        let timing = FlashTiming()
        XCTAssertEqual(timing.writeCost(offset: 0, count: 0), .zero)
        XCTAssertEqual(timing.writeCost(offset: 0, count: 4096), .milliseconds(85) + .nanoseconds(44_032_000))
        XCTAssertEqual(timing.writeCost(offset: 100, count: 100), .nanoseconds(1_075_000), "page 0 is already erased")
        XCTAssertEqual(timing.writeCost(offset: 4000, count: 200), .milliseconds(85) + .nanoseconds(2_150_000))
        XCTAssertEqual(timing.writeCost(offset: 4096, count: 1), .milliseconds(85) + .nanoseconds(10_750))
        XCTAssertEqual(timing.writeCost(offset: 0, count: 8193), .milliseconds(255) + .nanoseconds(88_074_750))
    }
}
