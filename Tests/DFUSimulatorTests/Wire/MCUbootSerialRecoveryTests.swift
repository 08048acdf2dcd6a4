import DFUBytes
import DFUPackage
import DFUWire
import XCTest
@testable import DFUSimulator

/// MCUboot's serial recovery over a serial line: its answers byte for byte (zcbor's
/// indefinite-length maps, `{rc}` errors), its upload into slot 0, and the boot after `reset`.
final class MCUbootSerialRecoveryTests: XCTestCase {
    private func open(_ settings: MCUbootSerialRecoverySettings = MCUbootSerialRecoverySettings(),
                      link: SimulatedWireLink = .serial(baud: 115_200),
                      image: [UInt8]? = SMPServerDevice.factoryImage.bytes) async throws
        -> (MCUbootSerialRecoveryDevice, SimulatedWireEndpoint, WireSMPClient) {
        let device = MCUbootSerialRecoveryDevice(settings: settings, lineLength: link.lineLength ?? 128, image: image)
        let endpoint = SimulatedWireEndpoint(device: device, link: link)
        let client = WireSMPClient(wire: try await endpoint.open(), framing: SMPConsoleMessageFraming())
        return (device, endpoint, client)
    }

    func testImageListReportsSlotHashAndVersionInIndefiniteMaps() async throws {
        let (_, _, client) = try await open()
        let answer = try await client.request(SMPTestSupport.imageStateRead)  // read, group 1, id 0, seq 5
        let hash = SMPServerDevice.factoryImage.hash
        // bs_list: {"images": [{"slot": 0, "hash": h'..', "version": "1.0.0"}]}, zcbor non-canonical.
        let body: [UInt8] = [0xBF, 0x66] + Array("images".utf8) + [0x9F, 0xBF, 0x64] + Array("slot".utf8) + [0x00, 0x64]
            + Array("hash".utf8) + [0x58, 0x20] + hash + [0x67] + Array("version".utf8) + [0x65] + Array("1.0.0".utf8)
            + [0xFF, 0xFF, 0xFF]
        XCTAssertEqual(answer, [0x09, 0x00, 0x00, UInt8(body.count), 0x00, 0x01, 0x05, 0x00] + body)
    }

    func testUnsupportedCommandsAnswerRC8AndEchoNeedsItsOption() async throws {
        let (_, _, client) = try await open()
        let erase = try await client.request(SMPTestSupport.frame(group: 1, sequence: 3, command: 5))
        XCTAssertEqual(erase, [0x0B, 0x00, 0x00, 0x06, 0x00, 0x01, 0x03, 0x05, 0xBF, 0x62, 0x72, 0x63, 0x08, 0xFF])
        let echoRequest = SMPTestSupport.frame(group: 0, sequence: 4, command: 0, body: .textMap(["d": .text("hi")]))
        let refused = try await client.request(echoRequest)
        XCTAssertEqual(refused, [0x0B, 0x00, 0x00, 0x06, 0x00, 0x00, 0x04, 0x00, 0xBF, 0x62, 0x72, 0x63, 0x08, 0xFF])

        var settings = MCUbootSerialRecoverySettings()
        settings.echo = true
        let (_, _, echoing) = try await open(settings)
        let echoed = try await echoing.request(echoRequest)
        XCTAssertEqual(echoed, [0x0B, 0x00, 0x00, 0x07, 0x00, 0x00, 0x04, 0x00, 0xBF, 0x61, 0x72, 0x62, 0x68, 0x69, 0xFF])
    }

    func testAPacketLargerThanTheReceiveBufferIsDroppedUnanswered() async throws {
        var settings = MCUbootSerialRecoverySettings()
        settings.echo = true
        let (_, _, client) = try await open(settings)
        let fits = SMPTestSupport.frame(group: 0, command: 0, body: .textMap(["d": .text(String(repeating: "a", count: 1000))]))
        XCTAssertLessThanOrEqual(fits.count, 1021)
        let answered = try await client.request(fits)
        XCTAssertNotNil(answered)
        let tooLong = SMPTestSupport.frame(group: 0, command: 0, body: .textMap(["d": .text(String(repeating: "a", count: 1020))]))
        XCTAssertGreaterThan(tooLong.count, 1021)
        let dropped = try await client.request(tooLong, timeout: .seconds(2))
        XCTAssertNil(dropped, "MCUBOOT_SERIAL_MAX_RECEIVE_SIZE 1024: the decoded frame does not fit dec_buf")
    }

    func testUploadOffsetsFollowTheWriteBlockAndAWrongOffsetGetsTheExpectedOne() async throws {
        let (_, _, client) = try await open()
        let image = SMPTestSupport.image(payloadSize: 4000)
        let first = try WireSMPClient.body(try await client.request(
            SMPTestSupport.upload(offset: 0, data: Array(image.bytes[0..<301]), length: image.bytes.count)))
        XCTAssertEqual(first, .map([CBORMapEntry("rc", 0), CBORMapEntry("off", 300)]), "301 bytes: 300 written (4-byte block)")
        let wrong = try WireSMPClient.body(try await client.request(SMPTestSupport.upload(offset: 1000, data: [1, 2, 3, 4])))
        XCTAssertEqual(wrong, .map([CBORMapEntry("rc", 0), CBORMapEntry("off", 300)]))
        _ = try await client.request(SMPTestSupport.upload(offset: 0, data: Array(image.bytes[0..<100]), length: 200))
        let past = try WireSMPClient.body(try await client.request(
            SMPTestSupport.upload(offset: 100, data: [UInt8](repeating: 0, count: 104))))
        XCTAssertEqual(past, .map([CBORMapEntry("rc", 3)]), "100 + 104 bytes of a 200-byte image")
    }

    func testUploadToSlotZeroThenResetBootsTheNewImageActiveAndConfirmed() async throws {
        let (device, _, client) = try await open()
        let image = SMPTestSupport.image(payloadSize: 20_000, version: MCUbootImageVersion(major: 2, minor: 0, revision: 0, build: 0))
        let offsets = try await client.upload(image.bytes, chunk: 512)
        XCTAssertEqual(offsets.last, image.bytes.count)
        let list = try WireSMPClient.body(try await client.request(SMPTestSupport.imageStateRead))
        XCTAssertEqual(list["images"]?.arrayValue?.first?["hash"]?.bytesValue, image.hash, "slot 0 holds it at once")
        let reset = try await client.request(SMPTestSupport.resetRequest)
        XCTAssertEqual(reset.map { Array($0.dropFirst(8)) }, [0xBF, 0x62, 0x72, 0x63, 0x00, 0xFF])
        let banner = try await client.next(timeout: .seconds(3))
        XCTAssertNil(banner, "the application prints, and sends no SMP of its own")
        XCTAssertEqual(client.text.first, "*** Booting Zephyr OS build v3.7.0 ***")
        XCTAssertEqual(device.mode, .application)
        // Now the application's img_mgmt answers: slot 0 active and confirmed, no swap.
        let appList = try WireSMPClient.body(try await client.request(SMPTestSupport.imageStateRead))
        let slot0 = try XCTUnwrap(appList["images"]?.arrayValue?.first)
        XCTAssertEqual(slot0["hash"]?.bytesValue, image.hash)
        XCTAssertEqual(slot0["version"]?.textValue, "2.0.0")
        XCTAssertEqual(slot0["active"]?.booleanValue, true)
        XCTAssertEqual(slot0["confirmed"]?.booleanValue, true)
        XCTAssertEqual(appList["splitStatus"]?.integerValue, 0)
    }

    func testAResetMidUploadLeavesSlotZeroInvalidAndMCUbootStaysInRecovery() async throws {
        let (device, endpoint, client) = try await open()
        let image = SMPTestSupport.image(payloadSize: 8000)
        _ = try await client.request(SMPTestSupport.upload(offset: 0, data: Array(image.bytes[0..<512]), length: image.bytes.count))
        _ = try await client.request(SMPTestSupport.resetRequest)
        await endpoint.sleep(until: endpoint.now + .seconds(2))
        XCTAssertEqual(device.mode, .recovery)
        XCTAssertNil(device.primaryImage)
        let list = try WireSMPClient.body(try await client.request(SMPTestSupport.imageStateRead))
        XCTAssertEqual(list["images"]?.arrayValue?.count, 0)
        let resumed = try WireSMPClient.body(try await client.request(SMPTestSupport.upload(offset: 512, data: [0, 0, 0, 0])))
        XCTAssertEqual(resumed["off"]?.integerValue, 0, "the upload's state was in RAM")
    }

    func testAResetDropsAUSBPortAndKeepsAUART() async throws {
        let (_, usbEndpoint, usb) = try await open(link: .serial(baud: 115_200, usb: true))
        _ = try await usb.request(SMPTestSupport.resetRequest)
        do {
            _ = try await usb.next(timeout: .seconds(1))
            XCTFail("the USB port went away")
        } catch let error as WireError {
            XCTAssertEqual(error.kind, .closed)
        }
        await usbEndpoint.sleep(until: usbEndpoint.now + .seconds(3))
        let again = WireSMPClient(wire: try await usbEndpoint.open(), framing: SMPConsoleMessageFraming())
        let list = try await again.request(SMPTestSupport.imageStateRead)
        XCTAssertNotNil(list)

        let (_, _, uart) = try await open()
        _ = try await uart.request(SMPTestSupport.resetRequest)
        _ = try await uart.next(timeout: .seconds(3))
        XCTAssertEqual(uart.text.first, "*** Booting Zephyr OS build v3.7.0 ***", "the UART stayed open")
    }

    func testWaitForDFUKeepsMCUbootWhenARequestComesInItsWindow() async throws {
        var settings = MCUbootSerialRecoverySettings()
        settings.entrance = .waitForDFU(window: .milliseconds(500))
        let (device, endpoint, client) = try await open(settings)
        await endpoint.sleep(until: .seconds(3))
        XCTAssertEqual(device.mode, .application, "nothing came in the first window")
        _ = try await client.request(SMPTestSupport.resetRequest)
        await endpoint.sleep(until: endpoint.now + .milliseconds(450))  // 250 ms reset delay, 100 ms MCUboot start
        let answer = try await client.request(SMPTestSupport.imageStateRead)
        XCTAssertEqual(answer.map { Array($0.dropFirst(8).prefix(2)) }, [0xBF, 0x66], "MCUboot's zcbor answer")
        XCTAssertEqual(device.mode, .recovery)
    }
}
