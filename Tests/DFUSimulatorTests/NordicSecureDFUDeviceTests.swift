import DFUBytes
import DFUGATT
import DFUPackage
import DFUSimulator
import XCTest

/// The simulated Secure DFU bootloader at the byte level. Responses are `60 <op> <result>
/// [params]`, all fields little-endian; golden CRC32 values come from Python's zlib.crc32.
final class NordicSecureDFUDeviceTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    private let noDelays = FlashTiming(writePerByte: .zero, pageErase: .zero, hashPerByte: .zero)

    /// "hello": CRC32 0x3610A686.
    private let hello = Array("hello".utf8)
    /// The init packet for "hello", encoded by hand: Packet{1: Command{1: INIT, 2: InitCommand{
    /// fw_version 1, hw_version 52, type APPLICATION, app_size 5, hash{SHA256, sha256("hello")
    /// byte-reversed}}}}.
    private let helloInitPacket: [UInt8] = [
        0x0A, 0x32, 0x08, 0x01, 0x12, 0x2E, 0x08, 0x01, 0x10, 0x34, 0x20, 0x00, 0x38, 0x05, 0x42, 0x24,
        0x08, 0x03, 0x12, 0x20, 0x24, 0x98, 0x8B, 0x93, 0x62, 0x33, 0x04, 0x73, 0x5E, 0x42, 0xA7, 0x1F,
        0x5C, 0x1E, 0x16, 0x1B, 0x9E, 0xE2, 0xB9, 0xC5, 0x2A, 0x3B, 0xE8, 0x26, 0x0E, 0xA3, 0xB0, 0x5F,
        0xBA, 0x4D, 0xF2, 0x2C,
    ]
    /// A 5000-byte image: byte i = (31 i + 7) mod 256. Two data objects (4096 + 904).
    private let image: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    private func makeDevice(mtu: Int = 247, publicKeyDER: [UInt8]? = nil, capacity: Int = 0xD_0000,
                            resume: SecureDFUResumePolicy = .ram, flash: FlashTiming? = nil,
                            failing: Set<Int> = []) throws -> (NordicSecureDFUDevice, SecureDFUClient) {
        let device = NordicSecureDFUDevice(address: address, publicKeyDER: publicKeyDER, capacity: capacity,
                                           resumePolicy: resume, flash: flash ?? noDelays, failingCommands: failing)
        let world = SimulatedWorld(name: "sim:nordic-secure-dfu", settings: LinkSettings(mtu: mtu), peripherals: [device])
        return (device, try SecureDFUClient(world: world, address: address))
    }

    /// Sends the init packet for `image` and executes it.
    private func sendInitPacket(_ client: SecureDFUClient, _ packet: [UInt8]) async throws -> [UInt8]? {
        let value1 = try await client.command(SecureDFUClient.create(1, size: packet.count))
        XCTAssertEqual(value1, [0x60, 0x01, 0x01])
        try await client.stream(packet)
        return try await client.command([0x04])
    }

    // MARK: - Every opcode

    func testEveryOpcodeAnswersWithTheExactBytesAtBothMTUs() async throws {
        for mtu in [23, 247] {
            let (_, client) = try makeDevice(mtu: mtu)
            let exchanges: [(request: [UInt8], response: [UInt8])] = [
                // The BLE transport sends no parameters for these (nrf_dfu_ble.c).
                ([0x00], [0x60, 0x00, 0x01]),
                ([0x07], [0x60, 0x07, 0x01]),
                ([0x09, 0x2A], [0x60, 0x09, 0x01]),
                ([0x0A], [0x60, 0x0A, 0x01]),
                ([0x0B, 0x00], [0x60, 0x0B, 0x01]),
                ([0x02, 0x0A, 0x00], [0x60, 0x02, 0x01]),
                ([0x06, 0x01], [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
                ([0x03], [0x60, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
                ([0x04], [0x60, 0x04, 0x05]),  // an empty command object does not decode
                ([0x06, 0x02], [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
                ([0x03], [0x60, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
                ([0x01, 0x02, 0x00, 0x10, 0x00, 0x00], [0x60, 0x01, 0x08]),  // no init packet yet
                ([0x04], [0x60, 0x04, 0x01]),  // nothing created, nothing to execute
                ([0x01, 0x01, 0x00, 0x00, 0x00, 0x00], [0x60, 0x01, 0x03]),  // size 0
                ([0x01, 0x01, 0x01, 0x02, 0x00, 0x00], [0x60, 0x01, 0x04]),  // 513 > 512
                ([0x01, 0x01, 0x05], [0x60, 0x01, 0x03]),  // size missing
                ([0x06, 0x03], [0x60, 0x06, 0x05]),
                ([0x03], [0x60, 0x03, 0x05]),
                ([0x04], [0x60, 0x04, 0x05]),
                ([0x05], [0x60, 0x05, 0x02]),
                ([0x08], [0x60, 0x08, 0x02]),
                ([0x7F, 0x01], [0x60, 0x7F, 0x02]),
            ]
            for (request, expected) in exchanges {
                let response = try await client.command(request)
                XCTAssertEqual(response, expected, "MTU \(mtu), request \(request.hexString)")
            }
            let value2 = try await client.command([0x0C])
            XCTAssertEqual(value2, [0x60, 0x0C, 0x01], "abort answers, then resets")
            let ended = await client.linkEnd()
            XCTAssertEqual(ended, "the bootloader ended the link to reset")
        }
    }

    func testEmptyControlPointWriteIsIgnored() async throws {
        let (device, client) = try makeDevice()
        try await client.link.write([], to: SecureDFUClient.controlPoint, type: .withResponse)
        let value3 = try await client.notification(within: .milliseconds(200))
        XCTAssertNil(value3)
        XCTAssertEqual(device.commandLog, [])
    }

    // MARK: - Objects

    func testObjectSequenceForASmallImageAtBothMTUs() async throws {
        for mtu in [23, 247] {
            let (device, client) = try makeDevice(mtu: mtu)
            let value4 = try await client.command([0x02, 0x00, 0x00])
            XCTAssertEqual(value4, [0x60, 0x02, 0x01])
            let value5 = try await client.command([0x06, 0x01])
            XCTAssertEqual(value5,
                           [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
            let value6 = try await client.command([0x01, 0x01, 0x34, 0x00, 0x00, 0x00])
            XCTAssertEqual(value6, [0x60, 0x01, 0x01])
            try await client.stream(helloInitPacket)
            let value7 = try await client.command([0x03])
            XCTAssertEqual(value7,
                           [0x60, 0x03, 0x01, 0x34, 0x00, 0x00, 0x00, 0x53, 0x60, 0x38, 0x0D], "52 bytes, CRC32 0x0D386053")
            let value8 = try await client.command([0x04])
            XCTAssertEqual(value8, [0x60, 0x04, 0x01])
            XCTAssertEqual(device.storedInitPacket, helloInitPacket)
            let value9 = try await client.command([0x06, 0x02])
            XCTAssertEqual(value9,
                           [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
            let value10 = try await client.command([0x01, 0x02, 0x05, 0x00, 0x00, 0x00])
            XCTAssertEqual(value10, [0x60, 0x01, 0x01])
            try await client.stream(hello)
            let value11 = try await client.command([0x03])
            XCTAssertEqual(value11,
                           [0x60, 0x03, 0x01, 0x05, 0x00, 0x00, 0x00, 0x86, 0xA6, 0x10, 0x36])
            let value12 = try await client.command([0x04])
            XCTAssertEqual(value12, [0x60, 0x04, 0x01])
            let ended = await client.linkEnd()
            XCTAssertEqual(ended, "the bootloader ended the link to reset", "MTU \(mtu): the bootloader resets after the last execute")
            XCTAssertEqual(device.installed, [NordicInstalledImage(type: .application, data: hello, firmwareVersion: 1)])
            XCTAssertEqual(device.commandLog, [.setReceiptNotification, .selectObject, .createObject,
                                               .calculateChecksum, .execute, .selectObject, .createObject,
                                               .calculateChecksum, .execute])

            // Back as a bootloader at the same address, with nothing in progress.
            try client.reconnect()
            XCTAssertEqual(device.rebootCount, 1)
            XCTAssertEqual(device.activatedCount, 1)
            let value13 = try await client.command([0x06, 0x01])
            XCTAssertEqual(value13,
                           [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
            let value14 = try await client.command([0x06, 0x02])
            XCTAssertEqual(value14,
                           [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        }
    }

    func testPacketsWrittenWithResponseAreAcceptedToo() async throws {
        let (device, client) = try makeDevice(mtu: 23)
        let value15 = try await sendInitPacket(client, helloInitPacket)
        XCTAssertEqual(value15, [0x60, 0x04, 0x01])
        let value16 = try await client.command([0x01, 0x02, 0x05, 0x00, 0x00, 0x00])
        XCTAssertEqual(value16, [0x60, 0x01, 0x01])
        try await client.stream(hello, type: .withResponse)
        XCTAssertEqual(device.receivedFirmware, hello)
        let value17 = try await client.command([0x04])
        XCTAssertEqual(value17, [0x60, 0x04, 0x01])
    }

    func testCreateRollsBackToTheLastExecutedObject() async throws {
        let (device, client) = try makeDevice()
        let value18 = try await sendInitPacket(client, HandEncodedInitPacket.application(for: image).bytes)
        XCTAssertEqual(value18, [0x60, 0x04, 0x01])
        let value19 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value19, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<4096]))
        let value20 = try await client.command([0x04])
        XCTAssertEqual(value20, [0x60, 0x04, 0x01])
        let value21 = try await client.command([0x01, 0x02, 0x88, 0x03, 0x00, 0x00])
        XCTAssertEqual(value21, [0x60, 0x01, 0x01], "904 bytes")
        try await client.stream(Array(image[4096..<4596]))
        let value22 = try await client.command([0x03])
        XCTAssertEqual(value22,
                       [0x60, 0x03, 0x01, 0xF4, 0x11, 0x00, 0x00, 0x88, 0x1F, 0x50, 0x4D], "4596 bytes")
        // A new CREATE of the same object goes back to the boundary of the executed one.
        let value23 = try await client.command([0x01, 0x02, 0x88, 0x03, 0x00, 0x00])
        XCTAssertEqual(value23, [0x60, 0x01, 0x01])
        let value24 = try await client.command([0x03])
        XCTAssertEqual(value24,
                       [0x60, 0x03, 0x01, 0x00, 0x10, 0x00, 0x00, 0xE3, 0x4E, 0x1C, 0x5D], "4096 bytes")
        XCTAssertEqual(device.executedFirmwareByteCount, 4096)
        try await client.stream(Array(image[4096...]))
        let value25 = try await client.command([0x03])
        XCTAssertEqual(value25,
                       [0x60, 0x03, 0x01, 0x88, 0x13, 0x00, 0x00, 0x29, 0xF1, 0xD9, 0x8A], "5000 bytes")
        let value26 = try await client.command([0x04])
        XCTAssertEqual(value26, [0x60, 0x04, 0x01])
        XCTAssertTrue(device.installed.map(\.data) == [image], "the image is installed")
    }

    func testExecuteWithAnIncompleteObjectIsNotPermittedAndExecutingAgainIsHarmless() async throws {
        let (device, client) = try makeDevice()
        let value27 = try await sendInitPacket(client, HandEncodedInitPacket.application(for: image).bytes)
        XCTAssertEqual(value27, [0x60, 0x04, 0x01])
        let value28 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value28, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<100]))
        let value29 = try await client.command([0x04])
        XCTAssertEqual(value29, [0x60, 0x04, 0x08])
        XCTAssertEqual(device.executedFirmwareByteCount, 0)
        try await client.stream(Array(image[100..<4096]))
        let value30 = try await client.command([0x04])
        XCTAssertEqual(value30, [0x60, 0x04, 0x01])
        let value31 = try await client.command([0x04])
        XCTAssertEqual(value31, [0x60, 0x04, 0x01], "nothing new created: a harmless success")
        XCTAssertEqual(device.executedFirmwareByteCount, 4096)
        XCTAssertTrue(client.link.isConnected)
    }

    func testDataObjectLimits() async throws {
        let (_, client) = try makeDevice()
        let value32 = try await sendInitPacket(client, HandEncodedInitPacket.application(for: image).bytes)
        XCTAssertEqual(value32, [0x60, 0x04, 0x01])
        let value33 = try await client.command([0x01, 0x02, 0x00, 0x00, 0x00, 0x00])
        XCTAssertEqual(value33, [0x60, 0x01, 0x03], "size 0")
        let value34 = try await client.command([0x01, 0x02, 0x00, 0x20, 0x00, 0x00])
        XCTAssertEqual(value34, [0x60, 0x01, 0x04], "8192 > 4096")
        let value35 = try await client.command([0x01, 0x02, 0x00, 0x08, 0x00, 0x00])
        XCTAssertEqual(value35, [0x60, 0x01, 0x03],
                       "2048: not page-aligned and not the last object")
        let value36 = try await client.command([0x01, 0x02, 0x88, 0x13, 0x00, 0x00])
        XCTAssertEqual(value36, [0x60, 0x01, 0x04], "5000 > 4096")
        let value37 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value37, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<4096]))
        let value38 = try await client.command([0x04])
        XCTAssertEqual(value38, [0x60, 0x04, 0x01])
        let value39 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value39, [0x60, 0x01, 0x08],
                       "4096 more would pass the 5000 bytes the init packet announced")
    }

    func testAWriteThatOverflowsTheObjectIsDropped() async throws {
        let (device, client) = try makeDevice()
        let value40 = try await sendInitPacket(client, helloInitPacket)
        XCTAssertEqual(value40, [0x60, 0x04, 0x01])
        let value41 = try await client.command([0x01, 0x02, 0x05, 0x00, 0x00, 0x00])
        XCTAssertEqual(value41, [0x60, 0x01, 0x01])
        try await client.stream(Array("hello!".utf8))
        let value42 = try await client.notification(within: .milliseconds(200))
        XCTAssertNil(value42, "no answer to a dropped write")
        let value43 = try await client.command([0x03])
        XCTAssertEqual(value43, [0x60, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        try await client.stream(hello)
        let checksum = try await client.command([0x03])
        XCTAssertEqual(checksum, [0x60, 0x03, 0x01, 0x05, 0x00, 0x00, 0x00, 0x86, 0xA6, 0x10, 0x36])
        XCTAssertEqual(device.receivedFirmware, hello)
    }

    // MARK: - Packet receipt notifications

    func testReceiptNotificationEveryNPackets() async throws {
        let (_, client) = try makeDevice(mtu: 23)
        let value44 = try await sendInitPacket(client, HandEncodedInitPacket.application(for: image).bytes)
        XCTAssertEqual(value44, [0x60, 0x04, 0x01])
        let value45 = try await client.command([0x02, 0x02, 0x00])
        XCTAssertEqual(value45, [0x60, 0x02, 0x01])
        let value46 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value46, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<100]))  // five 20-byte packets
        let value47 = try await client.notification()
        XCTAssertEqual(value47, [0x60, 0x03, 0x01, 0x28, 0x00, 0x00, 0x00, 0xB4, 0xB9, 0x2F, 0x4C])
        let value48 = try await client.notification()
        XCTAssertEqual(value48, [0x60, 0x03, 0x01, 0x50, 0x00, 0x00, 0x00, 0x04, 0x93, 0x4E, 0x5A])
        let value49 = try await client.notification(within: .milliseconds(200))
        XCTAssertNil(value49, "the fifth packet is one short of the next")
        // CREATE restarts the count: one packet after it is not enough, two are.
        let value50 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value50, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<20]))
        let value51 = try await client.notification(within: .milliseconds(200))
        XCTAssertNil(value51)
        try await client.stream(Array(image[20..<40]))
        let value52 = try await client.notification()
        XCTAssertEqual(value52, [0x60, 0x03, 0x01, 0x28, 0x00, 0x00, 0x00, 0xB4, 0xB9, 0x2F, 0x4C])
        // PRN 0 turns them off.
        let value53 = try await client.command([0x02, 0x00, 0x00])
        XCTAssertEqual(value53, [0x60, 0x02, 0x01])
        try await client.stream(Array(image[40..<200]))
        let value54 = try await client.notification(within: .milliseconds(200))
        XCTAssertNil(value54)
    }

    func testReceiptNotificationsCountInitPacketWritesAndADroppedWriteAnswersItsResult() async throws {
        let (_, client) = try makeDevice(mtu: 23)
        let value55 = try await client.command([0x02, 0x01, 0x00])
        XCTAssertEqual(value55, [0x60, 0x02, 0x01])
        let value56 = try await client.command([0x01, 0x01, 0x34, 0x00, 0x00, 0x00])
        XCTAssertEqual(value56, [0x60, 0x01, 0x01])
        try await client.stream(Array(helloInitPacket[0..<20]))
        let value57 = try await client.notification()
        XCTAssertEqual(value57, [0x60, 0x03, 0x01, 0x14, 0x00, 0x00, 0x00, 0x65, 0xBA, 0xE4, 0x4E])
        try await client.stream(Array(helloInitPacket[20...]) + [0xEE])  // 33 bytes: the second write overflows
        let value58 = try await client.notification()
        XCTAssertEqual(value58, [0x60, 0x03, 0x01, 0x28, 0x00, 0x00, 0x00]
            + SecureDFUClient.le32(crcOf: Array(helloInitPacket[0..<40])))
        let value59 = try await client.notification()
        XCTAssertEqual(value59, [0x60, 0x03, 0x03], "13 bytes past 52: invalid parameter")
    }

    // MARK: - Resume

    func testProgressSurvivesADisconnectAndTheTransferResumesMidObject() async throws {
        let (device, client) = try makeDevice()
        let value60 = try await sendInitPacket(client, HandEncodedInitPacket.application(for: image).bytes)
        XCTAssertEqual(value60, [0x60, 0x04, 0x01])
        let value61 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value61, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<1000]))
        let checksum = try await client.command([0x03])  // every packet is in
        XCTAssertEqual(checksum, [0x60, 0x03, 0x01, 0xE8, 0x03, 0x00, 0x00, 0x1E, 0x16, 0x02, 0x89])
        await client.link.disconnect()
        XCTAssertEqual(device.receivedFirmwareByteCount, 1000)

        try client.reconnect()
        let value62 = try await client.command([0x06, 0x01])
        XCTAssertEqual(value62, [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00]
            + SecureDFUClient.le32(device.storedInitPacket.count) + SecureDFUClient.le32(crcOf: device.storedInitPacket))
        let value63 = try await client.command([0x04])
        XCTAssertEqual(value63, [0x60, 0x04, 0x01], "the same init packet: executed again, kept")
        let value64 = try await client.command([0x06, 0x02])
        XCTAssertEqual(value64,
                       [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0xE8, 0x03, 0x00, 0x00, 0x1E, 0x16, 0x02, 0x89])
        try await client.stream(Array(image[1000..<4096]))  // the rest of the object, no CREATE
        let value65 = try await client.command([0x04])
        XCTAssertEqual(value65, [0x60, 0x04, 0x01])
        let value66 = try await client.command([0x01, 0x02, 0x88, 0x03, 0x00, 0x00])
        XCTAssertEqual(value66, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[4096...]))
        let value67 = try await client.command([0x04])
        XCTAssertEqual(value67, [0x60, 0x04, 0x01])
        XCTAssertTrue(device.installed.map(\.data) == [image], "the image is installed")
    }

    func testWithProgressSavedPerObjectADisconnectGoesBackToTheLastExecutedObject() async throws {
        let (_, client) = try makeDevice(resume: .object)
        let value68 = try await sendInitPacket(client, HandEncodedInitPacket.application(for: image).bytes)
        XCTAssertEqual(value68, [0x60, 0x04, 0x01])
        let value69 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value69, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<4096]))
        let value70 = try await client.command([0x04])
        XCTAssertEqual(value70, [0x60, 0x04, 0x01])
        let value71 = try await client.command([0x01, 0x02, 0x88, 0x03, 0x00, 0x00])
        XCTAssertEqual(value71, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[4096..<4596]))
        let checksum = try await client.command([0x03])
        XCTAssertEqual(checksum, [0x60, 0x03, 0x01, 0xF4, 0x11, 0x00, 0x00, 0x88, 0x1F, 0x50, 0x4D])
        await client.link.disconnect()
        try client.reconnect()
        let value72 = try await client.command([0x06, 0x02])
        XCTAssertEqual(value72,
                       [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0xE3, 0x4E, 0x1C, 0x5D])
    }

    func testWithTheSDKDefaultADisconnectKeepsTheInitPacketButRestartsTheData() async throws {
        let (_, client) = try makeDevice(resume: .initPacket)
        let packet = HandEncodedInitPacket.application(for: image).bytes
        let value73 = try await sendInitPacket(client, packet)
        XCTAssertEqual(value73, [0x60, 0x04, 0x01])
        let value74 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value74, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<4096]))
        let value75 = try await client.command([0x04])
        XCTAssertEqual(value75, [0x60, 0x04, 0x01])
        await client.link.disconnect()
        try client.reconnect()
        let value76 = try await client.command([0x06, 0x01])
        XCTAssertEqual(value76, [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00]
            + SecureDFUClient.le32(packet.count) + SecureDFUClient.le32(crcOf: packet))
        let value77 = try await client.command([0x06, 0x02])
        XCTAssertEqual(value77,
                       [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    func testCreatingACommandObjectResetsAllProgress() async throws {
        let (device, client) = try makeDevice()
        let packet = HandEncodedInitPacket.application(for: image).bytes
        let value78 = try await sendInitPacket(client, packet)
        XCTAssertEqual(value78, [0x60, 0x04, 0x01])
        let value79 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value79, [0x60, 0x01, 0x01])
        try await client.stream(Array(image[0..<4096]))
        let value80 = try await client.command([0x04])
        XCTAssertEqual(value80, [0x60, 0x04, 0x01])
        // A client that sends its init packet again (even the same bytes) starts over, as
        // nrf_dfu_validation_init_cmd_create resets the progress.
        let value81 = try await sendInitPacket(client, packet)
        XCTAssertEqual(value81, [0x60, 0x04, 0x01])
        XCTAssertEqual(device.receivedFirmwareByteCount, 0)
        let value82 = try await client.command([0x06, 0x02])
        XCTAssertEqual(value82,
                       [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    // MARK: - Init packet validation

    func testInitPacketValidationErrors() async throws {
        var wrongType = HandEncodedInitPacket.application(for: hello)
        wrongType.type = 5
        var sha512 = HandEncodedInitPacket.application(for: hello)
        sha512.hashType = 4
        var noHardware = HandEncodedInitPacket.application(for: hello)
        noHardware.hardwareVersion = nil
        var otherHardware = HandEncodedInitPacket.application(for: hello)
        otherHardware.hardwareVersion = 51
        var noVersion = HandEncodedInitPacket.application(for: hello)
        noVersion.firmwareVersion = nil
        var noSize = HandEncodedInitPacket.application(for: hello)
        noSize.applicationSize = nil
        var tooLarge = HandEncodedInitPacket.application(for: hello)
        tooLarge.applicationSize = 0xD_0001
        let cases: [(String, [UInt8], [UInt8])] = [
            ("not protobuf", [0xFF, 0xFF, 0xFF], [0x60, 0x04, 0x05]),
            ("unknown type", wrongType.bytes, [0x60, 0x04, 0x0B, 0x04]),
            ("SHA-512", sha512.bytes, [0x60, 0x04, 0x0B, 0x09]),
            ("no hw_version", noHardware.bytes, [0x60, 0x04, 0x0B, 0x04]),
            ("hw_version 51", otherHardware.bytes, [0x60, 0x04, 0x0B, 0x06]),
            ("app without fw_version", noVersion.bytes, [0x60, 0x04, 0x0B, 0x04]),
            ("no app_size", noSize.bytes, [0x60, 0x04, 0x0B, 0x04]),
            ("larger than the bank", tooLarge.bytes, [0x60, 0x04, 0x04]),
        ]
        for (name, packet, expected) in cases {
            let (device, client) = try makeDevice()
            let value83 = try await sendInitPacket(client, packet)
            XCTAssertEqual(value83, expected, name)
            XCTAssertFalse(device.hasAcceptedInitPacket, name)
            let value84 = try await client.command([0x01, 0x02, 0x05, 0x00, 0x00, 0x00])
            XCTAssertEqual(value84, [0x60, 0x01, 0x08],
                           "\(name): no data before an accepted init packet")
        }
    }

    func testARefusedInitPacketIsForgottenButAnUndecodableOneIsKept() async throws {
        var otherHardware = HandEncodedInitPacket.application(for: hello)
        otherHardware.hardwareVersion = 51
        let (device, client) = try makeDevice()
        let value85 = try await sendInitPacket(client, otherHardware.bytes)
        XCTAssertEqual(value85, [0x60, 0x04, 0x0B, 0x06])
        XCTAssertEqual(device.storedInitPacket, [])
        let value86 = try await client.command([0x06, 0x01])
        XCTAssertEqual(value86,
                       [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        let value87 = try await sendInitPacket(client, [0xFF, 0xFF])
        XCTAssertEqual(value87, [0x60, 0x04, 0x05])
        XCTAssertEqual(device.storedInitPacket, [0xFF, 0xFF])
    }

    func testExecutingAPartialInitPacketIsNotPermitted() async throws {
        let (_, client) = try makeDevice()
        let value88 = try await client.command([0x01, 0x01, 0x34, 0x00, 0x00, 0x00])
        XCTAssertEqual(value88, [0x60, 0x01, 0x01])
        try await client.stream(Array(helloInitPacket[0..<30]))
        let value89 = try await client.command([0x04])
        XCTAssertEqual(value89, [0x60, 0x04, 0x08])
    }

    func testSignatureChecksWhenTheBootloaderHasAKey() async throws {
        let key = try NordicSamples.publicKey()
        var unsigned = HandEncodedInitPacket.application(for: hello)
        var ed25519 = HandEncodedInitPacket.application(for: hello)
        ed25519.signature = (1, [UInt8](repeating: 0x11, count: 64))
        var short = HandEncodedInitPacket.application(for: hello)
        short.signature = (0, [UInt8](repeating: 0x11, count: 10))
        var forged = HandEncodedInitPacket.application(for: hello)
        forged.signature = (0, [UInt8](repeating: 0x11, count: 64))
        let cases: [(String, [UInt8], [UInt8])] = [
            ("unsigned", unsigned.bytes, [0x60, 0x04, 0x0B, 0x08]),
            ("Ed25519", ed25519.bytes, [0x60, 0x04, 0x0B, 0x0B]),
            ("10-byte signature", short.bytes, [0x60, 0x04, 0x0A]),
            ("wrong signature", forged.bytes, [0x60, 0x04, 0x05]),
        ]
        for (name, packet, expected) in cases {
            let (_, client) = try makeDevice(publicKeyDER: key)
            let value90 = try await sendInitPacket(client, packet)
            XCTAssertEqual(value90, expected, name)
        }
        // Without a key the same unsigned packet is fine.
        unsigned.firmwareVersion = 2
        let (_, open) = try makeDevice()
        let value91 = try await sendInitPacket(open, unsigned.bytes)
        XCTAssertEqual(value91, [0x60, 0x04, 0x01])
    }

    func testTheHandEncodedInitPacketDecodesAsNordicInitPacket() throws {
        let packet = try NordicInitPacket(decoding: helloInitPacket)
        XCTAssertEqual(packet.initCommand.applicationSize, 5)
        XCTAssertEqual(packet.initCommand.hardwareVersion, 52)
        XCTAssertTrue(packet.hashMatches(firmware: hello))
        XCTAssertEqual(HandEncodedInitPacket.application(for: hello).bytes, helloInitPacket)
    }

    // MARK: - Post-validation and reset

    func testPostValidationHashFailureAnswersVerificationFailedAndResets() async throws {
        let (device, client) = try makeDevice()
        let value92 = try await sendInitPacket(client, HandEncodedInitPacket.application(for: Array("hellO".utf8)).bytes)
        XCTAssertEqual(value92,
                       [0x60, 0x04, 0x01])
        let value93 = try await client.command([0x01, 0x02, 0x05, 0x00, 0x00, 0x00])
        XCTAssertEqual(value93, [0x60, 0x01, 0x01])
        try await client.stream(hello)
        let value94 = try await client.command([0x04])
        XCTAssertEqual(value94, [0x60, 0x04, 0x0B, 0x0C])
        let ended = await client.linkEnd()
        XCTAssertEqual(ended, "the bootloader ended the link to reset", "after post-validation, whatever the outcome")
        XCTAssertEqual(device.installed, [])
        try client.reconnect()
        let value95 = try await client.command([0x06, 0x01])
        XCTAssertEqual(value95,
                       [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    func testVersionsAfterInstallRefuseADowngrade() async throws {
        let (device, client) = try makeDevice()
        let value96 = try await client.flash(initPacket: HandEncodedInitPacket.application(for: hello, version: 3).bytes,
                                              firmware: hello)
        XCTAssertEqual(value96, [0x60, 0x04, 0x01])
        try client.reconnect()
        let older = HandEncodedInitPacket.application(for: hello, version: 2).bytes
        let value97 = try await sendInitPacket(client, older)
        XCTAssertEqual(value97, [0x60, 0x04, 0x0B, 0x05])
        let same = HandEncodedInitPacket.application(for: hello, version: 3).bytes
        let value98 = try await sendInitPacket(client, same)
        XCTAssertEqual(value98, [0x60, 0x04, 0x01])
        XCTAssertEqual(device.installed.count, 1)
    }

    func testBusyFaultAnswersOperationFailed() async throws {
        let (_, client) = try makeDevice(failing: [2])
        let value99 = try await client.command([0x06, 0x01]).map { Array($0.prefix(3)) }
        XCTAssertEqual(value99, [0x60, 0x06, 0x01])
        let value100 = try await client.command([0x06, 0x01])
        XCTAssertEqual(value100, [0x60, 0x06, 0x0A])
        let value101 = try await client.command([0x06, 0x01]).map { Array($0.prefix(3)) }
        XCTAssertEqual(value101, [0x60, 0x06, 0x01])
    }

    // MARK: - Timing

    func testExecuteWaitsForTheEraseAndWritesWhileOtherAnswersDoNot() async throws {
        let flash = FlashTiming(writePerByte: .microseconds(10), pageErase: .milliseconds(85), hashPerByte: .zero)
        let (_, client) = try makeDevice(flash: flash)
        let value102 = try await sendInitPacket(client, HandEncodedInitPacket.application(for: image).bytes)
        XCTAssertEqual(value102, [0x60, 0x04, 0x01])
        let before = client.link.now
        let value103 = try await client.command([0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(value103, [0x60, 0x01, 0x01])
        XCTAssertLessThanOrEqual(client.link.now - before, .milliseconds(30), "CREATE answers before the erase is done")
        let created = before + .milliseconds(15)  // the CREATE reached the device in the next event
        try await client.stream(Array(image[0..<4096]))
        let asked = client.link.now
        let value104 = try await client.command([0x03]).map { Array($0.prefix(3)) }
        XCTAssertEqual(value104, [0x60, 0x03, 0x01])
        XCTAssertLessThanOrEqual(client.link.now - asked, .milliseconds(45), "the checksum does not wait for the flash")
        XCTAssertLessThan(client.link.now, created + .milliseconds(85))
        let value105 = try await client.command([0x04])
        XCTAssertEqual(value105, [0x60, 0x04, 0x01])
        XCTAssertGreaterThanOrEqual(client.link.now, created + .milliseconds(85) + .microseconds(40_960),
                                    "EXECUTE waits for the erase and 4096 bytes of writes")
        XCTAssertLessThan(client.link.now, created + .milliseconds(85) + .microseconds(40_960) + .milliseconds(15))
    }
}
