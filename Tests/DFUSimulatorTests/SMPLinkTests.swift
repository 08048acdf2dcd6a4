import XCTest
import DFUBytes
import DFUGATT
import DFUPackage
@testable import DFUSimulator

/// `sim:mcumgr-smp` through the catalog and over the simulated link: configuration keys, a
/// windowed upload of an image made by imgtool, faults and the reboot.
final class SMPLinkTests: XCTestCase {
    // MARK: Configuration

    func testConfigurationKeys() throws {
        let configuration = try SimulatorConfiguration(parsing: "mcumgr-smp?buf-size=1024&buf-count=2&erase=slot&smp-version=1")
        XCTAssertEqual(configuration.smpServer.bufferSize, 1024)
        XCTAssertEqual(configuration.smpServer.bufferCount, 2)
        XCTAssertEqual(configuration.smpServer.eraseMode, .slot)
        XCTAssertEqual(configuration.smpServer.protocolVersion, 1)
        let defaults = try SimulatorConfiguration(parsing: "mcumgr-smp")
        XCTAssertEqual(defaults.smpServer, SMPServerSettings())
        XCTAssertEqual(defaults.smpServer.bufferSize, 2475)
        XCTAssertEqual(defaults.smpServer.bufferCount, 4)
        XCTAssertEqual(defaults.smpServer.eraseMode, .progressive)
    }

    func testConfigurationErrors() {
        let cases: [(String, String)] = [
            ("mcumgr-smp?buf-size=32", "buf-size must be an integer in 64...65535, not '32'"),
            ("mcumgr-smp?buf-count=0", "buf-count must be an integer in 1...64, not '0'"),
            ("mcumgr-smp?erase=later", "erase must be progressive, slot or none, not 'later'"),
            ("mcumgr-smp?smp-version=3", "smp-version must be 1 or 2, not '3'"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try SimulatorConfiguration(parsing: text), text) { error in
                XCTAssertEqual("\(error)", "sim: " + message)
            }
        }
    }

    func testSMPKeysAreRefusedForOtherDevicesAndNordicKeysForSMP() throws {
        for (text, key, owner, name) in [("vendor-ctrlpt?buf-size=512", "buf-size", "mcumgr-smp", "vendor-ctrlpt"),
                                         ("nordic-secure-dfu?erase=slot", "erase", "mcumgr-smp", "nordic-secure-dfu"),
                                         ("mcumgr-smp?resume=init", "resume", "nordic-secure-dfu", "mcumgr-smp")] {
            let configuration = try SimulatorConfiguration(parsing: text)
            XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(configuration)) { error in
                XCTAssertEqual("\(error)", "sim: \(key) applies to sim:\(owner) only, not sim:\(name)")
            }
        }
    }

    func testCatalogBuildsTheSMPDevice() throws {
        let configuration = try SimulatorConfiguration(parsing: "mcumgr-smp?buf-count=3&erase-ms=10&fault=busy:5&address=C0:00:00:00:00:07")
        let world = try SimulatedDeviceCatalog.makeWorld(configuration)
        XCTAssertEqual(world.name, "sim:mcumgr-smp")
        let device = try XCTUnwrap(world.peripherals.first as? SMPServerDevice)
        XCTAssertEqual(device.advertisement.name, "Zephyr SMP")
        XCTAssertEqual(device.advertisement.address.description, "C0:00:00:00:00:07")
        XCTAssertEqual(device.server.settings.bufferCount, 3)
        XCTAssertEqual(device.server.settings.flash.pageErase, .milliseconds(10))
        XCTAssertEqual(device.server.settings.busyRequests, [5])
    }

    // MARK: Over the link

    private func connect(_ world: SimulatedWorld) async throws -> SMPLinkClient {
        try await SMPLinkClient.connect(world)
    }

    func testWindowedUploadOfAnImgtoolImageThenTestResetAndConfirm() async throws {
        // firmware-samples/mcuboot/app-unsigned.bin: imgtool 2.5.0, version 1.2.3+4; its SHA256
        // TLV as imgtool dumpinfo prints it (firmware-samples/mcuboot/imgtool-dumpinfo.txt).
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("firmware-samples/mcuboot/app-unsigned.bin")
        let image = [UInt8](try Data(contentsOf: url))
        let hash = hexBytes("f282cf744f2e78f3bb8cdcbfd7d79db79c46b0bf733a30d81d17e1ca3543a6e4")

        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "mcumgr-smp"))
        let device = try XCTUnwrap(world.peripherals.first as? SMPServerDevice)
        let client = try await connect(world)
        let parameters = try await client.request(group: 0, command: 6, op: 0)
        let bufferSize = try XCTUnwrap(parameters?["buf_size"]?.integerValue)
        let last = try await client.upload(image, chunk: bufferSize - 100, window: 3)
        XCTAssertEqual(last?["off"]?.integerValue, image.count)
        XCTAssertEqual(last?["match"], true)
        XCTAssertEqual(device.droppedRequestCount, 0, "a window of buf_count - 1 never overflows")
        XCTAssertGreaterThan(client.link.statistics.packetsToPeripheral, image.count / 244)

        let list = try await client.request(group: 1, command: 0, op: 0)
        let secondary = list?["images"]?.arrayValue?.first { $0["slot"] == 1 }
        XCTAssertEqual(secondary?["version"], "1.2.3.4")
        XCTAssertEqual(secondary?["hash"], .bytes(hash))

        _ = try await client.request(group: 1, command: 0, body: .textMap(["hash": .bytes(hash), "confirm": false]))
        let reset = try await client.request(group: 0, command: 5)
        XCTAssertEqual(reset, .map([]))
        let answeredAt = client.link.now
        // The old image keeps answering until its reset comes due, 250 ms after the request.
        let echo = try await client.request(group: 0, command: 0, body: .textMap(["d": "x"]))
        XCTAssertEqual(echo?["r"], "x")
        do {
            _ = try await client.nextResponse(timeout: .seconds(5))
            XCTFail("the link should have dropped")
        } catch {
            XCTAssertEqual((error as? GATTError)?.kind, .disconnected)
            XCTAssertEqual((error as? GATTError)?.detail, "the device rebooted (its reset came due 0.25 seconds after the request)")
        }
        let rebootedAt = client.link.now
        XCTAssertLessThan(rebootedAt - answeredAt, .milliseconds(250), "250 ms after the request, not the answer")
        // MCUboot swaps (silent), then the new image boots and advertises.
        let swap = device.server.settings.swapTime(bytes: max(image.count, SMPServerDevice.factoryImage.bytes.count))
        let heard = try await world.waitForAdvertisement(from: device.advertisement.address, timeout: .seconds(60))
        XCTAssertNotNil(heard)
        XCTAssertEqual(world.now - rebootedAt, swap + .seconds(1) + SimulatedWorld.advertisementHeardAfter)
        XCTAssertEqual(swap, .microseconds(5_032_248), "13 sectors of 4 KiB, three erases and writes each")
        let again = try await connect(world)
        let confirmed = try await again.request(group: 1, command: 0, body: .textMap(["confirm": true]))
        let primary = confirmed?["images"]?.arrayValue?.first { $0["slot"] == 0 }
        XCTAssertEqual(primary?["hash"], .bytes(hash))
        XCTAssertEqual(primary?["confirmed"], true)
        XCTAssertEqual(primary?["active"], true)
    }

    func testAWindowLargerThanBufCountLosesRequests() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "mcumgr-smp?buf-count=2"))
        let device = try XCTUnwrap(world.peripherals.first as? SMPServerDevice)
        let client = try await connect(world)
        let image = SMPTestSupport.image(payloadSize: 30_000).bytes
        // Five requests of 2 KiB each go out at once; a device with two buffers drops some.
        for offset in stride(from: 0, to: 10_000, by: 2000) {
            let frame = offset == 0
                ? SMPTestSupport.upload(offset: 0, data: Array(image[0..<2000]), length: image.count, sha: SHA256.digest(image))
                : SMPTestSupport.upload(offset: offset, data: Array(image[offset..<(offset + 2000)]))
            try await client.write(frame)
        }
        var answers = 0
        while try await client.nextResponse(timeout: .seconds(1)) != nil { answers += 1 }
        XCTAssertGreaterThan(device.droppedRequestCount, 0)
        XCTAssertEqual(answers + device.droppedRequestCount, 5)
    }

    func testResumeAfterADisconnectFault() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "mcumgr-smp?fault=disconnect-after:9000"))
        let device = try XCTUnwrap(world.peripherals.first as? SMPServerDevice)
        let image = SMPTestSupport.image(payloadSize: 20_000).bytes
        let client = try await connect(world)
        do {
            _ = try await client.upload(image, chunk: 2000, window: 1)
            XCTFail("the fault should drop the link")
        } catch {
            XCTAssertEqual((error as? GATTError)?.kind, .disconnected)
        }
        let received = device.server.uploadedByteCount
        XCTAssertGreaterThan(received, 0)
        // The same file again: the first chunk's answer says where to go on.
        let again = try await connect(world)
        let first = SMPTestSupport.upload(offset: 0, data: Array(image[0..<2000]), length: image.count, sha: SHA256.digest(image))
        try await again.write(first)
        let answer = try await again.nextResponse()
        XCTAssertEqual(answer?["off"]?.integerValue, received)
    }
}
