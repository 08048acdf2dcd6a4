import DFUBytes
import DFUGATT
import DFUPackage

/// A DA14585 application with Dialog's SDK 6 SUOTA receiver (`sim:dialog-suota`): the SUOTA
/// service over `SUOTAReceiver`, two image banks in SPI flash (`SUOTAFlash`), and the secondary
/// bootloader that picks the image to run at every reset.
///
/// GATT (SDK 6 `suotar.c` `suotar_init`, in its attribute order, service 0xFEF5 at handle 1):
/// MEM_DEV 3 (read, write), GPIO_MAP 5 (read, write), MEM_INFO 7 (read), PATCH_LEN 9 (read,
/// write), PATCH_DATA 11 (read, write, write without response; at most 244 bytes,
/// `SUOTA_PD_CHAR_SIZE`), SERV_STATUS 13 (read, notify) with its CCCD 14, and SUOTA 1.3's
/// VERSION 16 (`0D`), PATCH_DATA_CHAR_SIZE 18 (`F4 00`) and MTU 20 (the link's, u16). Statuses
/// are notified only while the CCCD is on; a lost link turns it off and the status value back
/// to 0 (`suotar_cleanup`), and keeps the receiver's session (retention memory).
///
/// Reboot (MEM_DEV 0xFD): the write is answered, then the device ends the link itself
/// (`app_easy_gap_disconnect`) and resets in its disconnect callback (SDK 6
/// `user_app_on_disconnect`: `platform_reset(RESET_AFTER_SUOTA_UPDATE)`); the bootloader runs
/// the newest valid bank whose CRC passes and the application advertises again after `boot`
/// (`boot-ms`, default 1000 ms: assumed, the sources give no number). A power glitch resets it
/// the same way; the flash is kept.
///
/// It starts with a factory image (version "0.9.0") valid in bank 1 with image id 0, bank 2
/// erased; the default layout gives 44,992 bytes of code per bank.
///
/// Device Information (0x180A, after the SUOTA service: handles 21 to 25), as the SDK 6
/// examples register it (`CFG_PRF_DISS`): Firmware Revision 2A26 (value handle 23) and Software
/// Revision 2A28 (25), both `SDK_VERSION` by default, so the same before and after an update
/// built with the same SDK; `dis=image` makes 2A28 the running image's header version,
/// `dis=none` leaves the service out (`DialogSUOTASettings`). Both follow the image that runs:
/// after the bootloader rejected a bank, the old image's.
///
/// Options (`DialogSUOTASettings`): `corrupt-stored=OFFSET` stores one byte of the image wrong
/// while the XOR over the bytes received still passes (CMP_OK, bank valid, the bootloader's
/// CRC-32 rejects it at the next reset); `on-reboot=disconnect|ignore` for an application that
/// does not reset on the reboot command.
package final class DialogSUOTADevice: SimulatedPeripheral {
    package struct Timing: Sendable, Equatable {
        package var boot: Duration

        package init(boot: Duration = .milliseconds(1000)) {
            self.boot = boot
        }
    }

    package static let serviceUUID = BluetoothUUID(string: "FEF5")!
    package static let memoryDeviceUUID = BluetoothUUID(string: "8082CAA8-41A6-4021-91C6-56F9B954CC34")!
    package static let gpioMapUUID = BluetoothUUID(string: "724249F0-5EC3-4B5F-8804-42345AF08651")!
    package static let memoryInfoUUID = BluetoothUUID(string: "6C53DB25-47A1-45FE-A022-7C92FB334FD4")!
    package static let patchLengthUUID = BluetoothUUID(string: "9D84B9A3-000C-49D8-9183-855B673FDA31")!
    package static let patchDataUUID = BluetoothUUID(string: "457871E8-D516-4CA1-9116-57D0B17B9CB2")!
    package static let statusUUID = BluetoothUUID(string: "5F78DF94-798C-46F5-990A-B3EB6A065C88")!
    package static let versionUUID = BluetoothUUID(string: "64B4E8B5-0DE5-401B-A21D-ACC8DB3B913A")!
    package static let patchDataSizeUUID = BluetoothUUID(string: "42C3DFDD-77BE-4D9C-8454-8F875267FB3B")!
    package static let mtuUUID = BluetoothUUID(string: "B7DE1EEA-823D-43BB-A3AF-C4903DFCE23C")!

    static let memoryDeviceHandle: UInt16 = 3
    static let gpioMapHandle: UInt16 = 5
    static let memoryInfoHandle: UInt16 = 7
    static let patchLengthHandle: UInt16 = 9
    static let patchDataHandle: UInt16 = 11
    static let statusHandle: UInt16 = 13
    static let statusConfigurationHandle: UInt16 = 14
    static let versionHandle: UInt16 = 16
    static let patchDataSizeHandle: UInt16 = 18
    static let mtuHandle: UInt16 = 20

    package static let deviceInformationUUID = BluetoothUUID(string: "180A")!
    package static let firmwareRevisionUUID = BluetoothUUID(string: "2A26")!
    package static let softwareRevisionUUID = BluetoothUUID(string: "2A28")!
    static let firmwareRevisionHandle: UInt16 = 23
    static let softwareRevisionHandle: UInt16 = 25
    /// `SDK_VERSION` (`sdk_version.h`) of Dialog's SDK 6.0.18, as a DA14585 built with it reports
    /// it in 2A26 and 2A28.
    package static let sdkVersion = "v_6.0.18.1182.1"

    /// `SUOTA_VERSION_1_3`.
    package static let suotaVersion: UInt8 = 13
    /// `SUOTA_PD_CHAR_SIZE` for SUOTA 1.3.
    package static let patchDataSize = 244
    /// ATT error "Invalid Attribute Value Length", for a PATCH_DATA write over its 244 bytes.
    static let invalidLength: UInt8 = 0x0D

    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's. MEM_DEV
    /// writes answer to `memory_device` (an image type), `end` (0xFE), `reboot` (0xFD) or
    /// `exit` (0xFF); each PATCH_DATA write is one `patch_data`.
    package static let commandNames = ["memory_device", "gpio_map", "patch_length", "patch_data", "end", "reboot", "exit"]

    /// The factory image in bank 1: version "0.9.0", 8,000 bytes of code.
    public static let factoryImage: [UInt8] = {
        var state: UInt64 = 0x5107A
        let code = (0..<8000).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        return SUOTAImageHeader(code: code, version: "0.9.0", timestamp: 1_700_000_000).encoded + code
    }()

    package let advertisement: Advertisement
    package let timing: Timing
    package let settings: DialogSUOTASettings
    private(set) var receiver: SUOTAReceiver
    private(set) var flash = SUOTAFlash()
    private let flashTiming: FlashTiming
    private(set) var cycle = PowerCycle()
    private var commandFaults: CommandDisconnectInjector
    /// `busy:N` faults: the N-th flash write (1-based: a block stored, the end command's valid
    /// flag) fails, answered EXT_MEM_WRITE_ERR with nothing written.
    private let failingWrites: Set<Int>
    private var flashWrites = 0
    private var mtu = 23
    private var busyUntil: Duration = .zero
    /// The SERV_STATUS CCCD (0: off, 1: notifications, 2: indications).
    private var statusConfiguration: UInt16 = 0
    private var statusValue = SUOTAStatus.reserved
    /// What was last written to MEM_DEV, GPIO_MAP and PATCH_LEN (they read back as written).
    private var stored: [UInt16: [UInt8]] = [:]
    /// The bank the bootloader ran at the last reset (0 or 1); nil: nothing bootable.
    package private(set) var runningBank: Int?
    /// The image that runs: header (as mkimage wrote it) and code.
    package private(set) var runningImage: [UInt8]?
    package private(set) var rebootCount = 0

    package init(address: DeviceAddress, name: String = "DLG-SUOTA", flash flashTiming: FlashTiming = FlashTiming(),
                timing: Timing = Timing(), settings: DialogSUOTASettings = DialogSUOTASettings(),
                failingWrites: Set<Int> = [], commandDisconnects: [CommandDisconnect] = []) {
        self.advertisement = Advertisement(address: address, name: name, serviceUUIDs: [Self.serviceUUID], rssi: -42)
        self.flashTiming = flashTiming
        self.timing = timing
        self.settings = settings
        self.receiver = SUOTAReceiver(corruptStoredOffset: settings.corruptStoredOffset)
        self.commandFaults = CommandDisconnectInjector(commandDisconnects)
        self.failingWrites = failingWrites
        flash.program(bank: 0, file: Self.factoryImage, imageID: 0)
        boot()
    }

    package var services: [GATTService] {
        func characteristic(_ uuid: BluetoothUUID, _ handle: UInt16, _ properties: GATTProperties) -> GATTCharacteristic {
            GATTCharacteristic(service: Self.serviceUUID, uuid: uuid, valueHandle: handle, properties: properties)
        }
        let suota = GATTService(uuid: Self.serviceUUID, characteristics: [
            characteristic(Self.memoryDeviceUUID, Self.memoryDeviceHandle, [.read, .write]),
            characteristic(Self.gpioMapUUID, Self.gpioMapHandle, [.read, .write]),
            characteristic(Self.memoryInfoUUID, Self.memoryInfoHandle, [.read]),
            characteristic(Self.patchLengthUUID, Self.patchLengthHandle, [.read, .write]),
            characteristic(Self.patchDataUUID, Self.patchDataHandle, [.read, .write, .writeWithoutResponse]),
            characteristic(Self.statusUUID, Self.statusHandle, [.read, .notify]),
            characteristic(Self.versionUUID, Self.versionHandle, [.read]),
            characteristic(Self.patchDataSizeUUID, Self.patchDataSizeHandle, [.read]),
            characteristic(Self.mtuUUID, Self.mtuHandle, [.read]),
        ])
        guard settings.deviceInformation != .none else { return [suota] }
        let information = Self.deviceInformationUUID
        return [suota, GATTService(uuid: information, characteristics: [
            GATTCharacteristic(service: information, uuid: Self.firmwareRevisionUUID,
                               valueHandle: Self.firmwareRevisionHandle, properties: [.read]),
            GATTCharacteristic(service: information, uuid: Self.softwareRevisionUUID,
                               valueHandle: Self.softwareRevisionHandle, properties: [.read]),
        ])]
    }

    /// What Device Information's Firmware Revision (2A26) reads; nil without the service.
    package var firmwareRevision: String? { settings.deviceInformation == .none ? nil : Self.sdkVersion }

    /// What Device Information's Software Revision (2A28) reads: the SDK's version, or the
    /// running image's header version (`dis=image`); nil without the service.
    package var softwareRevision: String? {
        switch settings.deviceInformation {
        case .none: return nil
        case .sdk: return Self.sdkVersion
        case .image: return runningImage.flatMap { try? SUOTAImageHeader(decoding: $0) }?.version ?? ""
        }
    }

    // MARK: - State, for tests and stage reports

    /// Each bank as a `.img` file would hold it (header as mkimage wrote it, code as written);
    /// nil for an erased bank.
    package var bankFiles: [[UInt8]?] { flash.banks.map { $0.fileBytes() } }
    /// Whether each bank is marked valid (the bootloader considers it).
    package var validBanks: [Bool] { flash.banks.map(\.isValid) }
    /// Each bank's image id as the receiver wrote it.
    package var bankImageIDs: [UInt8?] { flash.banks.map { $0.header?.imageID } }
    /// The bank the bootloader would run at the next reset.
    package var nextBootBank: Int? { flash.bootBank }
    /// MEM_INFO: bytes of the image written in the current session.
    package var memoryInfo: UInt32 { receiver.memoryInfo }
    /// Whether a SUOTA session is open (a memory device set, not ended).
    package var isSessionOpen: Bool { receiver.memoryDevice.isExternalImage }
    /// The bank the open or last session writes.
    package var sessionBank: Int? { receiver.targetBank }
    package var isBooting: Bool { cycle.isBooting }

    /// Replaces bank `index`'s content with `file` (a `.img`), valid, with `imageID`: a device
    /// programmed with two images before a test.
    package func program(bank index: Int, file: [UInt8], imageID: UInt8) {
        flash.program(bank: index, file: file, imageID: imageID)
    }

    // MARK: - SimulatedPeripheral

    public func connectionStarted(mtu: Int, at time: Duration) {
        self.mtu = mtu
    }

    public func connectionEnded(at time: Duration) {
        // suotar_cleanup: notifications off, status back to 0; the session survives.
        statusConfiguration = 0
        statusValue = .reserved
        if receiver.isRebootRequested, settings.onReboot == .reset { reset(at: time) }
    }

    public func readValue(handle: UInt16) -> [UInt8]? {
        guard !cycle.isBooting else { return nil }
        switch handle {
        case Self.memoryDeviceHandle, Self.gpioMapHandle, Self.patchLengthHandle:
            return stored[handle] ?? [UInt8](repeating: 0, count: handle == Self.patchLengthHandle ? 2 : 4)
        case Self.memoryInfoHandle: return Self.littleEndian(receiver.memoryInfo, width: 4)
        case Self.patchDataHandle: return []
        case Self.statusHandle: return [statusValue.rawValue]
        case Self.statusConfigurationHandle: return Self.littleEndian(UInt32(statusConfiguration), width: 2)
        case Self.versionHandle: return [Self.suotaVersion]
        case Self.patchDataSizeHandle: return Self.littleEndian(UInt32(Self.patchDataSize), width: 2)
        case Self.mtuHandle: return Self.littleEndian(UInt32(mtu), width: 2)
        case Self.firmwareRevisionHandle: return firmwareRevision.map { Array($0.utf8) }
        case Self.softwareRevisionHandle: return softwareRevision.map { Array($0.utf8) }
        default: return nil
        }
    }

    public func isAdvertising(at time: Duration) -> Bool { cycle.isAdvertising && runningBank != nil }
    public var nextTimer: Duration? { cycle.deadline }

    public func fireTimers(at time: Duration) -> [PeripheralEvent] {
        _ = cycle.due(at: time)
        return []
    }

    public func powerCycle(at time: Duration) {
        reset(at: time)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        busyUntil += offset
    }

    /// `platform_reset`: RAM (the receiver) is lost, the bootloader picks the image, the
    /// application starts advertising after `timing.boot`.
    private func reset(at time: Duration) {
        rebootCount += 1
        receiver = SUOTAReceiver(corruptStoredOffset: settings.corruptStoredOffset)
        statusConfiguration = 0
        statusValue = .reserved
        stored = [:]
        busyUntil = time
        boot()
        cycle.rebooted(at: time, silentFor: timing.boot)
    }

    private func boot() {
        runningBank = flash.bootBank
        runningImage = runningBank.flatMap { flash.banks[$0].fileBytes() }
    }

    // MARK: - Writes

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard !cycle.isBooting else { return [] }
        switch handle {
        case Self.statusConfigurationHandle:
            statusConfiguration = UInt16(value.first ?? 0) | UInt16(value.count > 1 ? value[1] : 0) << 8
            return []
        case Self.patchDataHandle where value.count > Self.patchDataSize:
            return [PeripheralOutput(pdu: .errorResponse(code: Self.invalidLength, handle: handle), readyAt: time)]
        case Self.memoryDeviceHandle, Self.gpioMapHandle, Self.patchLengthHandle, Self.patchDataHandle:
            return commandFaults.handle(Self.commandNames(handle: handle, value: value), at: time) {
                process(handle: handle, value: value, at: time)
            }
        default:
            return [PeripheralOutput(pdu: .errorResponse(code: 0x03, handle: handle), readyAt: time)]  // Write Not Permitted
        }
    }

    /// The profile's command name for a write (`commandNames`).
    static func commandNames(handle: UInt16, value: [UInt8]) -> [String] {
        switch handle {
        case memoryDeviceHandle:
            switch SUOTAMemoryDevice(decoding: value).kind {
            case .imageEnd: return ["end"]
            case .reboot: return ["reboot"]
            case .serviceExit: return ["exit"]
            default: return ["memory_device"]
            }
        case gpioMapHandle: return ["gpio_map"]
        case patchLengthHandle: return ["patch_length"]
        case patchDataHandle: return ["patch_data"]
        default: return []
        }
    }

    /// One write the receiver handles: its statuses, notified once the flash work is done, and
    /// for a reboot the end of the link.
    private func process(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        let writesFlash = handle == Self.patchDataHandle ? receiver.completesBlock(value)
            : handle == Self.memoryDeviceHandle && receiver.writesValidFlag(SUOTAMemoryDevice(decoding: value))
        if writesFlash {
            flashWrites += 1
            receiver.failsNextFlashWrite = failingWrites.contains(flashWrites)
        }
        let outcome = receive(handle: handle, value: value)
        busyUntil = max(busyUntil, time) + outcome.work
        var outputs: [PeripheralOutput] = []
        for status in outcome.statuses {
            statusValue = status
            guard statusConfiguration != 0 else { continue }
            outputs.append(PeripheralOutput(pdu: .notification(handle: Self.statusHandle, value: [status.rawValue]),
                                            readyAt: busyUntil))
        }
        if outcome.rebootRequested, settings.onReboot != .ignore {
            // app_easy_gap_disconnect after the write confirmation: the link ends (0x13 from the
            // device), then user_app_on_disconnect resets (connectionEnded), unless the
            // application does not (`on-reboot=disconnect`).
            outputs.append(PeripheralOutput(pdu: .terminate, readyAt: busyUntil, disconnectAfterSending: true,
                                            disconnectReason: "the device ended the link to reboot (SUOTA reboot)"))
        }
        return outputs
    }

    private func receive(handle: UInt16, value: [UInt8]) -> SUOTAReceiver.Outcome {
        switch handle {
        case Self.memoryDeviceHandle:
            stored[handle] = Array(value.prefix(4))
            return receiver.memoryDeviceWritten(SUOTAMemoryDevice(decoding: value), flash: &flash, timing: flashTiming)
        case Self.gpioMapHandle:
            stored[handle] = Array(value.prefix(4))
            receiver.gpioMapWritten(value)
            return SUOTAReceiver.Outcome()
        case Self.patchLengthHandle:
            stored[handle] = Array(value.prefix(2))
            return receiver.patchLengthWritten(value)
        default:
            return receiver.patchDataWritten(value, flash: &flash, timing: flashTiming)
        }
    }

    private static func littleEndian(_ value: UInt32, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

extension DialogSUOTADevice: CommandLogging {
    package var receivedCommands: [[String]] { commandFaults.log }
}
