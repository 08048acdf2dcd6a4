import DFUBytes
import DFUGATT
import DFUPackage
@testable import DFUSimulator
import XCTest

/// What each simulated device holds of a target image, stage by stage, as a fault matrix asks.
final class FirmwareStageTests: XCTestCase {
    func testStagesAreOrdered() {
        XCTAssertEqual(FirmwareStage.allCases.sorted(), [.unchanged, .overwritten, .received, .pending, .unconfirmed, .installed])
        XCTAssertLessThan(FirmwareStage.received, .installed)
        XCTAssertEqual(FirmwareStageReport(.pending, "x").description, "pending: x")
    }

    func testSMPStages() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        let image = SMPTestSupport.image(payloadSize: 10_000)
        let target = TargetFirmware(bytes: image.bytes)
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.unchanged, "runs 1.0.0"))
        let sha = SHA256.digest(image.bytes)
        exchange.send(SMPTestSupport.upload(offset: 0, data: Array(image.bytes[0..<2000]), length: image.bytes.count, sha: sha))
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.unchanged, "runs 1.0.0; slot 1 holds 2000 of 10072 bytes of the new image"))
        exchange.uploadImage(image.bytes)
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.received, "runs 1.0.0; slot 1 holds the whole new image 1.2.3.4"))
        exchange.send(SMPTestSupport.testState(hash: image.hash, confirm: false))
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.pending, "runs 1.0.0; slot 1 holds 1.2.3.4, set to boot at the next reset for a test"))
        exchange.send(SMPTestSupport.resetRequest)
        XCTAssertEqual(device.stage(of: target).summary,
                       "runs 1.0.0 (reset due); slot 1 holds 1.2.3.4, set to boot at the next reset for a test")
        _ = device.fireTimers(at: device.nextTimer ?? .zero)
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.unconfirmed, "runs 1.2.3.4 (booting) unconfirmed: it reverts at the next reset"))
        exchange.runTimers()
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: [], imageHash: image.hash)).stage, .unconfirmed, "by hash alone")
        exchange.send(hexBytes("0a00000a00010a00a167636f6e6669726df5"))  // confirm
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.installed, "runs 1.2.3.4, confirmed"))
        let other = SMPTestSupport.image(payloadSize: 500, seed: 3)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: other.bytes)).stage, .unchanged)
    }

    func testVendorStages() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "vendor-ctrlpt"))
        let device = try XCTUnwrap(world.peripherals.first as? VendorControlPointDevice)
        let image = Array("hello".utf8)
        let target = TargetFirmware(bytes: image)
        func send(_ payload: [UInt8], at time: Duration) {
            _ = device.receiveWrite(handle: 3, value: [UInt8(payload.count), 0] + payload, at: time)
        }
        device.connectionStarted(mtu: 247, at: .zero)
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.unchanged, "runs the factory image"))
        send([0x01] + [5, 0, 0, 0] + [0x86, 0xA6, 0x10, 0x36] + SHA256.digest(image), at: .zero)
        send([0x02, 0, 0, 0, 0, 0x68, 0x65], at: .zero)
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.unchanged, "runs the factory image; holds 2 of 5 bytes of the new image"))
        send([0x02, 2, 0, 0, 0, 0x6C, 0x6C, 0x6F], at: .zero)
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.received, "runs the factory image; holds the whole new image (not verified yet)"))
        send([0x03], at: .zero)
        XCTAssertEqual(device.stage(of: target).summary, "runs the factory image; holds the whole new image (verified)")
        send([0x04], at: .zero)
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.pending, "runs the factory image; the new image is activated and boots at the reset"))
        _ = device.fireTimers(at: device.nextTimer ?? .zero)
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.installed, "runs the new image (booting)"))
        _ = device.fireTimers(at: device.nextTimer ?? .zero)
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.installed, "runs the new image"))
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: [1, 2, 3])), FirmwareStageReport(.unchanged, "runs a 5-byte image"))
    }

    func testSecureDFUStagesWithButtonless() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "nordic-secure-dfu?mtu=23&buttonless=bonded"))
        let device = try XCTUnwrap(world.peripherals.first as? NordicSecureDFUDevice)
        let firmware = (0..<40).map { UInt8($0) }
        let target = TargetFirmware(bytes: firmware)
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.unchanged, "runs the application"))
        let client = try SecureDFUClient(world: world, address: device.advertisement.address)
        try await client.enterBootloader(.bonded)
        try client.reconnect()
        let packet = HandEncodedInitPacket.application(for: firmware).bytes
        _ = try await client.command(SecureDFUClient.create(1, size: packet.count))
        try await client.stream(packet)
        _ = try await client.command([0x04])
        _ = try await client.command(SecureDFUClient.create(2, size: 40))
        try await client.stream(Array(firmware[0..<20]))
        try await client.link.sleep(until: client.link.now + .milliseconds(50))  // the write reaches the device
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.unchanged, "is in DFU mode; the bank holds 20 of 40 bytes of the new image"))
        try await client.stream(Array(firmware[20...]))
        _ = try await client.command([0x03])
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.received, "is in DFU mode; the bank holds the whole new image, not executed"))
        _ = try await client.command([0x04])
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.pending, "is resetting (silent); the new image is validated and activates at the reset"))
        _ = await client.linkEnd()
        try await client.link.sleep(until: try XCTUnwrap(device.nextTimer))  // the reset: activation, then the boot
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.pending, "is resetting (silent); APPLICATION v1 activated, the application starts when the boot ends"))
        try client.reconnect()
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.installed, "runs the application; APPLICATION v1 activated"))
    }

    func testLegacyStages() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "nordic-legacy-dfu?mtu=23"))
        let device = try XCTUnwrap(world.peripherals.first as? NordicLegacyDFUDevice)
        let image: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let initPacket: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0xFE, 0xFF, 0x92, 0x47]
        let target = TargetFirmware(bytes: image)
        func write(_ value: [UInt8], handle: UInt16, at time: Duration = .zero) {
            _ = device.receiveWrite(handle: handle, value: value, at: time)
        }
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.unchanged, "is in DFU mode"))
        write([0x01, 0x04], handle: 6)
        write([0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0], handle: 3)
        write([0x02, 0x00], handle: 6)
        write(initPacket, handle: 3)
        write([0x02, 0x01], handle: 6)
        write([0x03], handle: 6)
        write(Array(image[0..<4]), handle: 3)
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.unchanged, "is in DFU mode; holds 4 of 8 bytes of the new image"))
        write(Array(image[4...]), handle: 3)
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.received, "is in DFU mode; holds the whole new image (not validated yet)"))
        write([0x04], handle: 6)
        XCTAssertEqual(device.stage(of: target).summary, "is in DFU mode; holds the whole new image (validated)")
        write([0x05], handle: 6, at: .seconds(1))
        XCTAssertEqual(device.stage(of: target),
                       FirmwareStageReport(.pending, "is activating or booting (silent); APPLICATION v1 activated, not started yet"))
        device.connectionEnded(at: .seconds(1))
        _ = device.fireTimers(at: device.nextTimer ?? .zero)
        XCTAssertEqual(device.stage(of: target), FirmwareStageReport(.installed, "runs the application; APPLICATION v1 activated"))
    }
}
