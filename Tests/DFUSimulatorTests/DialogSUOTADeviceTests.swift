import DFUBytes
import DFUGATT
import DFUPackage
import DFUSimulator
import XCTest

/// `sim:dialog-suota` at the ATT level, against what Dialog's SDK 6 receiver answers
/// (app_suotar.c, app_suotar_task.c, suotar_task.c): one status byte per notification, MEM_DEV
/// values `type << 24 | bank` little-endian, the file plus its XOR byte in blocks.
final class DialogSUOTADeviceTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:05")!
    private var device: DialogSUOTADevice!
    private var world: SimulatedWorld!
    private var link: SimulatedLink!
    private var characteristics: [BluetoothUUID: GATTCharacteristic] = [:]

    private static let spiBankAny: [UInt8] = [0x00, 0x00, 0x00, 0x13]
    private static let end: [UInt8] = [0x00, 0x00, 0x00, 0xFE]
    private static let reboot: [UInt8] = [0x00, 0x00, 0x00, 0xFD]

    /// A `.img` file: the mkimage header, then `size` bytes of seeded code.
    static func imageFile(codeSize: Int, version: String = "1.0.0", timestamp: UInt32 = 1_714_564_800,
                          seed: UInt64 = 7) -> [UInt8] {
        var state = seed
        let code = (0..<codeSize).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        return SUOTAImageHeader(code: code, version: version, timestamp: timestamp).encoded + code
    }

    private func makeDevice(mtu: Int = 247, failing: Set<Int> = []) async throws {
        device = DialogSUOTADevice(address: address, flash: FlashTiming(writePerByte: .zero, pageErase: .zero),
                                   failingWrites: failing)
        world = SimulatedWorld(name: "sim:dialog-suota", settings: LinkSettings(mtu: mtu), peripherals: [device])
        try await connect()
    }

    private func connect(subscribe: Bool = true) async throws {
        link = try world.connectLink(to: address, timeout: .seconds(5))
        let services = try await link.discoverServices()
        characteristics = Dictionary(uniqueKeysWithValues: (services.first?.characteristics ?? []).map { ($0.uuid, $0) })
        if subscribe {
            try await link.setNotifications(enabled: true, for: characteristic(DialogSUOTADevice.statusUUID),
                                            preferring: .notifications)
        }
    }

    private func characteristic(_ uuid: BluetoothUUID) -> GATTCharacteristic { characteristics[uuid]! }

    private func write(_ uuid: BluetoothUUID, _ bytes: [UInt8], type: GATTWriteType = .withResponse) async throws {
        try await link.write(bytes, to: characteristic(uuid), type: type)
    }

    /// The next status notified, nil when none came within a second.
    private func status() async throws -> UInt8? {
        try await link.nextNotification(until: link.now + .seconds(1))?.value.first
    }

    private func memoryDevice(_ bytes: [UInt8]) async throws -> UInt8? {
        try await write(DialogSUOTADevice.memoryDeviceUUID, bytes)
        return try await status()
    }

    /// One block: PATCH_LEN when `announce`, then the chunks; the status that follows.
    private func block(_ bytes: [UInt8], announce: Bool = true, chunk: Int = 20) async throws -> UInt8? {
        if announce {
            try await write(DialogSUOTADevice.patchLengthUUID, [UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8)])
        }
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            try await write(DialogSUOTADevice.patchDataUUID, Array(bytes[start..<end]), type: .withoutResponse)
            start = end
        }
        return try await status()
    }

    /// The file and its XOR byte in `blockSize` blocks, as the SUOTA apps send them: every status.
    private func upload(_ file: [UInt8], blockSize: Int = 240, xor: UInt8? = nil) async throws -> [UInt8?] {
        let data = file + [xor ?? file.reduce(0, ^)]
        var statuses: [UInt8?] = []
        var offset = 0
        while offset < data.count {
            let end = min(offset + blockSize, data.count)
            statuses.append(try await block(Array(data[offset..<end]), announce: offset == 0 || end - offset != blockSize))
            offset = end
        }
        return statuses
    }

    private func u32(_ bytes: [UInt8]) -> UInt32 {
        var reader = ByteReader(bytes)
        return UInt32((try? reader.readUnsigned(width: 4, endianness: .little)) ?? 0)
    }

    // MARK: - Wire messages

    func testMemoryDeviceValuesAreLittleEndianTypeAndBank() {
        XCTAssertEqual(SUOTAMemoryDevice(kind: .imageSPIFlash).encoded, [0x00, 0x00, 0x00, 0x13])
        XCTAssertEqual(SUOTAMemoryDevice(kind: .imageI2CEEPROM, baseAddress: 2).encoded, [0x02, 0x00, 0x00, 0x12])
        XCTAssertEqual(SUOTAMemoryDevice(kind: .imageEnd).encoded, [0x00, 0x00, 0x00, 0xFE])
        XCTAssertEqual(SUOTAMemoryDevice(kind: .reboot).encoded, [0x00, 0x00, 0x00, 0xFD])
        XCTAssertEqual(SUOTAMemoryDevice(decoding: [0x01, 0x00, 0x00, 0x13]), SUOTAMemoryDevice(kind: .imageSPIFlash, baseAddress: 1))
        XCTAssertEqual(SUOTAMemoryDevice(decoding: [0x02]), SUOTAMemoryDevice(kind: SUOTAMemoryDevice.Kind(rawValue: 0), baseAddress: 2))
        XCTAssertEqual(SUOTAStatus.sameImageError.description, "SAME_IMG_ERR")
        XCTAssertEqual(SUOTAStatus(rawValue: 0x42).description, "status 0x42")
    }

    func testServiceCharacteristicsAndSUOTA13Values() async throws {
        try await makeDevice(mtu: 185)
        let services = try await link.discoverServices()
        XCTAssertEqual(services.first?.uuid, BluetoothUUID(uuid16: 0xFEF5))
        XCTAssertEqual(services.first?.characteristics.map(\.uuid.uuidString), [
            "8082CAA8-41A6-4021-91C6-56F9B954CC34", "724249F0-5EC3-4B5F-8804-42345AF08651",
            "6C53DB25-47A1-45FE-A022-7C92FB334FD4", "9D84B9A3-000C-49D8-9183-855B673FDA31",
            "457871E8-D516-4CA1-9116-57D0B17B9CB2", "5F78DF94-798C-46F5-990A-B3EB6A065C88",
            "64B4E8B5-0DE5-401B-A21D-ACC8DB3B913A", "42C3DFDD-77BE-4D9C-8454-8F875267FB3B",
            "B7DE1EEA-823D-43BB-A3AF-C4903DFCE23C",
        ])
        let version = try await link.read(characteristic(DialogSUOTADevice.versionUUID))
        XCTAssertEqual(version, [0x0D])
        let size = try await link.read(characteristic(DialogSUOTADevice.patchDataSizeUUID))
        XCTAssertEqual(size, [0xF4, 0x00])
        let mtu = try await link.read(characteristic(DialogSUOTADevice.mtuUUID))
        XCTAssertEqual(mtu, [185, 0])
        XCTAssertEqual(device.advertisement.serviceUUIDs, [BluetoothUUID(uuid16: 0xFEF5)])
    }

    // MARK: - A whole update

    func testAnUpdateAtTheByteLevelThenTheRebootRunsTheNewImage() async throws {
        try await makeDevice()
        XCTAssertEqual(device.runningBank, 0, "the factory image in bank 1")
        let file = Self.imageFile(codeSize: 300)  // 364 bytes + the XOR byte: blocks of 240 and 125
        let started = try await memoryDevice(Self.spiBankAny)
        XCTAssertEqual(started, 0x10, "IMG_STARTED")
        try await write(DialogSUOTADevice.gpioMapUUID, [0x00, 0x03, 0x06, 0x05])
        let nothing = try await status()
        XCTAssertNil(nothing, "GPIO_MAP is not answered for image types")
        let statuses = try await upload(file)
        XCTAssertEqual(statuses, [0x02, 0x02], "CMP_OK after each block")
        let info = try await link.read(characteristic(DialogSUOTADevice.memoryInfoUUID))
        XCTAssertEqual(u32(info), 364, "MEM_INFO: every byte of the file, not the XOR byte")
        XCTAssertEqual(device.validBanks, [true, false], "bank 2 is not valid before the end command")
        let ended = try await memoryDevice(Self.end)
        XCTAssertEqual(ended, 0x02)
        XCTAssertEqual(device.validBanks, [true, true])
        XCTAssertEqual(device.bankImageIDs, [0, 1], "the factory image's id + 1")
        XCTAssertEqual(device.bankFiles[1], file)
        XCTAssertEqual(device.nextBootBank, 1)
        let again = try await memoryDevice(Self.end)
        XCTAssertEqual(again, 0x06, "no session open any more: an SPI-only build answers EXT_MEM_WRITE_ERR")

        // Reboot: the write is answered, then the device ends the link and resets.
        try await write(DialogSUOTADevice.memoryDeviceUUID, Self.reboot)
        let drop = try? await link.nextNotification(until: link.now + .seconds(1))
        XCTAssertNil(drop)
        XCTAssertFalse(link.isConnected, "the device ended the link")
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertTrue(device.isBooting)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .pending)
        await world.sleep(until: world.now + .milliseconds(1001))
        XCTAssertFalse(device.isBooting)
        XCTAssertEqual(device.runningImage, file)
        XCTAssertEqual(device.runningBank, 1)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .installed)
    }

    func testTheNextUpdateGoesToTheOlderBankWithTheNextImageID() async throws {
        try await makeDevice()
        for (index, version) in ["1.0.0", "1.1.0"].enumerated() {
            let file = Self.imageFile(codeSize: 500, version: version, seed: UInt64(index))
            let started = try await memoryDevice(Self.spiBankAny)
            XCTAssertEqual(started, 0x10)
            let statuses = try await upload(file)
            XCTAssertEqual(statuses.compactMap { $0 }, [UInt8](repeating: 0x02, count: statuses.count))
            let ended = try await memoryDevice(Self.end)
            XCTAssertEqual(ended, 0x02)
        }
        XCTAssertEqual(device.bankImageIDs, [2, 1], "1.1.0 replaced the factory image (older) with id 2")
        XCTAssertEqual(device.nextBootBank, 0)
    }

    // MARK: - Refusals

    func testTheEndCommandChecksTheXORAndLeavesADamagedImageInvalid() async throws {
        try await makeDevice()
        let file = Self.imageFile(codeSize: 300)
        let started = try await memoryDevice(Self.spiBankAny)
        XCTAssertEqual(started, 0x10)
        let statuses = try await upload(file, xor: file.reduce(0, ^) ^ 0x01)
        XCTAssertEqual(statuses, [0x02, 0x02])
        let ended = try await memoryDevice(Self.end)
        XCTAssertEqual(ended, 0x04, "CRC_ERR")
        XCTAssertEqual(device.validBanks, [true, false])
        XCTAssertEqual(device.nextBootBank, 0, "the factory image still boots")
        let again = try await memoryDevice(Self.end)
        XCTAssertEqual(again, 0x04, "the XOR is only cleared by the next start (app_suotar_start)")
    }

    func testTheFirstBlockIsCheckedAgainstTheHeaderAndTheBank() async throws {
        try await makeDevice()
        let file = Self.imageFile(codeSize: 300)
        var cases: [(String, [UInt8], UInt8)] = []
        cases.append(("a first block shorter than the header", Array((file + [file.reduce(0, ^)]).prefix(63)), 0x12))
        var unsigned = file
        unsigned[1] = 0x52
        cases.append(("no 'pQ' signature", Array(unsigned.prefix(240)), 0x12))
        cases.append(("code larger than a bank (44,992 bytes)", Array(Self.imageFile(codeSize: 44_993).prefix(240)), 0x13))
        for (what, first, expected) in cases {
            let started = try await memoryDevice(Self.spiBankAny)
            XCTAssertEqual(started, 0x10, what)
            let answer = try await block(first)
            XCTAssertEqual(answer, expected, what)
        }
        XCTAssertEqual(device.validBanks, [true, false])
    }

    func testTheSameImageInTheChosenBankIsRefused() async throws {
        try await makeDevice()
        let file = Self.imageFile(codeSize: 300)
        device.program(bank: 1, file: file, imageID: 1)
        let started = try await memoryDevice([0x02, 0x00, 0x00, 0x13])
        XCTAssertEqual(started, 0x10)
        let answer = try await block(Array(file.prefix(240)))
        XCTAssertEqual(answer, 0x15, "SAME_IMG_ERR: same version and timestamp in bank 2")
        // Bank 0 (the older image's bank) is bank 1 here: the factory image, another version.
        let restarted = try await memoryDevice(Self.spiBankAny)
        XCTAssertEqual(restarted, 0x10)
        let accepted = try await block(Array(file.prefix(240)))
        XCTAssertEqual(accepted, 0x02)
        XCTAssertEqual(device.sessionBank, 0)
    }

    func testMemoryDeviceRefusals() async throws {
        try await makeDevice()
        let badBank = try await memoryDevice([0x03, 0x00, 0x00, 0x13])
        XCTAssertEqual(badBank, 0x11, "INVAL_IMG_BANK: banks are 0, 1, 2")
        let systemRAM = try await memoryDevice([0x00, 0x00, 0x00, 0x10])
        XCTAssertEqual(systemRAM, 0x08, "INVAL_MEM_TYPE: no images in SYSRAM")
        let unknown = try await memoryDevice([0x00, 0x00, 0x00, 0x14])
        XCTAssertEqual(unknown, 0x08)
        let exit = try await memoryDevice([0x00, 0x00, 0x00, 0xFF])
        XCTAssertEqual(exit, 0x03, "SRV_EXIT")
        try await write(DialogSUOTADevice.patchDataUUID, [1, 2, 3], type: .withoutResponse)
        let noSession = try await status()
        XCTAssertEqual(noSession, 0x08, "data without a session: INVAL_MEM_TYPE")
    }

    func testPatchLengthRefusals() async throws {
        try await makeDevice()
        let started = try await memoryDevice(Self.spiBankAny)
        XCTAssertEqual(started, 0x10)
        try await write(DialogSUOTADevice.patchDataUUID, [1, 2, 3], type: .withoutResponse)
        let noLength = try await status()
        XCTAssertEqual(noLength, 0x05, "PATCH_LEN_ERR: no PATCH_LEN yet")
        try await write(DialogSUOTADevice.patchLengthUUID, [0x00, 0x00])
        let zero = try await status()
        XCTAssertEqual(zero, 0x05, "PATCH_LEN 0")
        try await write(DialogSUOTADevice.patchLengthUUID, [0x01, 0x02])  // 513
        let tooLong = try await status()
        XCTAssertEqual(tooLong, 0x07, "INT_MEM_ERR: over the 512-byte buffer")
        try await write(DialogSUOTADevice.patchLengthUUID, [0x0A, 0x00])
        try await write(DialogSUOTADevice.patchDataUUID, [UInt8](repeating: 9, count: 12), type: .withoutResponse)
        let overrun = try await status()
        XCTAssertEqual(overrun, 0x05, "12 bytes for a 10-byte block")
    }

    func testAPatchDataWriteOverItsLengthIsRefusedAndStatusesNeedTheCCCD() async throws {
        try await makeDevice(mtu: 517)
        do {
            try await write(DialogSUOTADevice.patchDataUUID, [UInt8](repeating: 0, count: 245))
            XCTFail("a 245-byte write request must be refused")
        } catch {
            XCTAssertEqual((error as? GATTError)?.kind, .attError(code: 0x0D, handle: characteristic(DialogSUOTADevice.patchDataUUID).valueHandle))
        }
        await link.disconnect()
        try await connect(subscribe: false)
        try await write(DialogSUOTADevice.memoryDeviceUUID, Self.spiBankAny)
        let silent = try await status()
        XCTAssertNil(silent, "no notification without the CCCD")
        let value = try await link.read(characteristic(DialogSUOTADevice.statusUUID))
        XCTAssertEqual(value, [0x10])
    }

    // MARK: - Links and resets

    /// A lost link keeps the session (retention memory) but there is nothing to resume from: the
    /// client starts again with MEM_DEV, and the image goes to the same, still invalid, bank.
    func testALostLinkKeepsTheSessionAndANewStartGoesToTheSameBank() async throws {
        try await makeDevice()
        let file = Self.imageFile(codeSize: 2000)
        let started = try await memoryDevice(Self.spiBankAny)
        XCTAssertEqual(started, 0x10)
        let first = try await block(Array(file.prefix(240)))
        XCTAssertEqual(first, 0x02)
        await link.disconnect()
        XCTAssertTrue(device.isSessionOpen, "suota_state survives the link")
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .unchanged)
        XCTAssertTrue(device.stage(of: TargetFirmware(bytes: file)).summary.contains("holds 240 of 2064 bytes"),
                      device.stage(of: TargetFirmware(bytes: file)).summary)
        try await connect()
        let restarted = try await memoryDevice(Self.spiBankAny)
        XCTAssertEqual(restarted, 0x10)
        let statuses = try await upload(file)
        XCTAssertEqual(Set(statuses), [0x02])
        let ended = try await memoryDevice(Self.end)
        XCTAssertEqual(ended, 0x02)
        XCTAssertEqual(device.bankFiles[1], file)
    }

    func testAPowerGlitchLosesTheSessionAndBootsTheNewestValidImageWhoseCRCPasses() async throws {
        try await makeDevice()
        let good = Self.imageFile(codeSize: 400, version: "2.0.0")
        var bad = Self.imageFile(codeSize: 400, version: "3.0.0")
        bad[100] ^= 0xFF  // the code no longer matches its header's CRC
        device.program(bank: 1, file: good, imageID: 1)
        device.powerCycle(at: world.now)
        XCTAssertEqual(device.nextBootBank, 1)
        XCTAssertEqual(device.runningBank, 1, "id 1 is newer than the factory image's 0")
        device.program(bank: 0, file: bad, imageID: 2)
        device.powerCycle(at: world.now)
        XCTAssertEqual(device.runningBank, 1, "the newest (id 2) fails its CRC: the bootloader falls back")
        XCTAssertFalse(device.isSessionOpen)
        // findlatest: 0xFF against 0 counts 0 as the newer.
        device.program(bank: 0, file: good, imageID: 0xFF)
        device.program(bank: 1, file: Self.imageFile(codeSize: 400, version: "4.0.0"), imageID: 0)
        XCTAssertEqual(device.nextBootBank, 1)
    }

    /// `busy:N`: the Nth flash write (a block, the end command's valid flag) fails.
    func testAFailingFlashWriteAnswersExternalMemoryWriteError() async throws {
        try await makeDevice(failing: [2, 7])
        let file = Self.imageFile(codeSize: 600)  // 665 bytes on the wire: blocks of 240, 240, 185
        let started = try await memoryDevice(Self.spiBankAny)
        XCTAssertEqual(started, 0x10)
        let statuses = try await upload(file)
        XCTAssertEqual(statuses, [0x02, 0x06, 0x02], "the second block's write failed")
        XCTAssertEqual(device.memoryInfo, 240 + 185, "the failed block was not written")
        let restarted = try await memoryDevice(Self.spiBankAny)
        XCTAssertEqual(restarted, 0x10)
        let again = try await upload(file)
        XCTAssertEqual(again, [0x02, 0x02, 0x02])
        let ended = try await memoryDevice(Self.end)
        XCTAssertEqual(ended, 0x06, "the seventh flash write: the valid flag")
        XCTAssertEqual(device.validBanks, [true, false])
    }
}

/// `sim:dialog-suota?...`: the keys and faults it takes.
final class DialogSUOTAConfigurationTests: XCTestCase {
    func testTheCatalogMakesItWithItsTimingFaultsAndCommandNames() throws {
        let world = try SimulatedDeviceCatalog.makeWorld(
            try SimulatorConfiguration(parsing: "dialog-suota?mtu=185&boot-ms=250&name=DA14585&fault=disconnect-on:patch_data:5"))
        let device = try XCTUnwrap(world.peripherals.first as? DialogSUOTADevice)
        XCTAssertEqual(device.timing.boot, .milliseconds(250))
        XCTAssertEqual(device.advertisement.name, "DA14585")
        XCTAssertEqual(SimulatedDeviceCatalog.commandNames["dialog-suota"],
                       ["memory_device", "gpio_map", "patch_length", "patch_data", "end", "reboot", "exit"])
        XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(
            try SimulatorConfiguration(parsing: "dialog-suota?fault=disconnect-on:activate"))) { error in
            XCTAssertTrue("\(error)".contains("sim:dialog-suota has no command 'activate'"), "\(error)")
        }
        XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "dialog-suota?buf-size=512")))
    }
}
