import DFUBytes
import DFUGATT

/// A simulated nRF5 SDK <= 11 legacy DFU bootloader (`sim:nordic-legacy-dfu`), dual bank.
///
/// GATT: service 00001530-1212-EFDE-1523-785FEABCD123 with the packet 1532 (write without
/// response; handle 3), the control point 1531 (write, notify; handle 6, CCCD 7) and the DFU
/// version 1534 (read: `08 00`, version 0.8; handle 9). It advertises "DfuTarg". The protocol is
/// `LegacyDFUBootloader`; its state survives a disconnect (a new Start is refused until 06).
/// SDK 11 bootloaders use ATT_MTU 23 (20-byte packets); the simulator accepts what the link's
/// MTU allows.
///
/// Leaving DFU mode, as SDK 11 does it (dfu_transport_ble.c `on_dfu_evt`, dfu_dual_bank.c,
/// bootloader.c, examples/dfu/bootloader/main.c):
/// - 05 (activate) is acknowledged by the write response only; the bootloader ends the link
///   (`dfu_transport_close`: LL terminate) and activates at once. An application is copied
///   from bank 1 to bank 0 (erase and write, then the settings) and started without a reset:
///   the device then runs the application, which advertises as "Nordic_App" on the
///   bootloader's address - 1 (the bootloader adds 1 when no peer data was shared,
///   `dfu_transport_update_start`) and offers no DFU service. A SoftDevice and/or bootloader
///   is marked in the settings; the device resets, waits 100 ms, swaps them in
///   (`bootloader_dfu_sd_update_continue`) and, the application being invalid after a new
///   SoftDevice, comes back in DFU mode.
/// - 05 with nothing validated, 06, and the 120 s DFU timeout end the link the same way and
///   start a valid application, or reset into DFU mode.
/// Each ends with `boot` (the application's CRC check and start, `boot-ms`, default 1100 ms:
/// about 1.1 s measured for an nRF5 bootloader's app CRC on an nRF52832, forum.espruino.com
/// 339116) before anything advertises.
package final class NordicLegacyDFUDevice: SimulatedPeripheral {
    package enum Mode: Sendable, Equatable {
        case bootloader
        case application
    }

    package static let serviceUUID = BluetoothUUID(string: "00001530-1212-EFDE-1523-785FEABCD123")!
    package static let controlPointUUID = BluetoothUUID(string: "00001531-1212-EFDE-1523-785FEABCD123")!
    package static let packetUUID = BluetoothUUID(string: "00001532-1212-EFDE-1523-785FEABCD123")!
    package static let versionUUID = BluetoothUUID(string: "00001534-1212-EFDE-1523-785FEABCD123")!
    package static let packetHandle: UInt16 = 3
    package static let controlPointHandle: UInt16 = 6
    package static let versionHandle: UInt16 = 9
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's
    /// (`image_sizes` is the packet write of the three sizes after `start_dfu`), plus `reset`
    /// (06) and `report_size` (07).
    package static let commandNames = [
        "start_dfu", "image_sizes", "init_start", "init_complete", "set_prn", "receive_firmware", "validate",
        "activate", "reset", "report_size",
    ]
    /// DFU_REVISION 0x0008: major 0, minor 8 (SDK 7-11 with init packets).
    package static let version: [UInt8] = [0x08, 0x00]
    package static let applicationName = "Nordic_App"
    /// `nrf_delay_ms(100)` before a SoftDevice swap, "to allow a debugger to be attached".
    static let softDeviceSwapDelay: Duration = .milliseconds(100)

    package let bootloaderAddress: DeviceAddress
    package let bootTime: Duration
    package private(set) var mode = Mode.bootloader
    package private(set) var rebootCount = 0
    /// Bank 0 holds a valid application (`bootloader_app_is_valid`).
    package private(set) var applicationIsValid = false
    private let bootloaderName: String
    private(set) var bootloader: LegacyDFUBootloader
    private(set) var cycle = PowerCycle()
    private var commandFaults: CommandDisconnectInjector
    /// DFU mode ended on a command: the link ends with the terminate, then the device is silent
    /// until `silentUntil` (activation work and boot) and runs in `next`.
    private(set) var leaving: (silentUntil: Duration, next: Mode)?

    package init(address: DeviceAddress, name: String = "DfuTarg", capacity: Int = 0x3_B000,
                flash: FlashTiming = FlashTiming(), failingCommands: Set<Int> = [], bootTime: Duration = .milliseconds(1100),
                commandDisconnects: [CommandDisconnect] = []) {
        self.bootloaderAddress = address
        self.bootloaderName = name
        self.bootTime = bootTime
        self.bootloader = LegacyDFUBootloader(flash: flash, capacity: capacity, failingCommands: failingCommands)
        self.commandFaults = CommandDisconnectInjector(commandDisconnects)
    }

    /// Where the application advertises: the bootloader's address - 1.
    package var applicationAddress: DeviceAddress {
        var bytes = bootloaderAddress.bytes
        bytes[5] &-= 1  // addr[0]: the least significant byte, without borrow
        return DeviceAddress(bytes: bytes)!
    }

    package var advertisement: Advertisement {
        switch mode {
        case .bootloader:
            return Advertisement(address: bootloaderAddress, name: bootloaderName, serviceUUIDs: [Self.serviceUUID], rssi: -45)
        case .application:
            return Advertisement(address: applicationAddress, name: Self.applicationName, serviceUUIDs: [], rssi: -45)
        }
    }

    package var services: [GATTService] {
        guard mode == .bootloader else { return [] }
        return [GATTService(uuid: Self.serviceUUID, characteristics: [
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.packetUUID, valueHandle: Self.packetHandle,
                               properties: [.writeWithoutResponse]),
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.controlPointUUID,
                               valueHandle: Self.controlPointHandle, properties: [.write, .notify]),
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.versionUUID, valueHandle: Self.versionHandle,
                               properties: [.read]),
        ])]
    }

    /// Images activated so far, oldest first.
    package var installed: [NordicInstalledImage] { bootloader.installed }
    /// Image bytes received in the current DFU session.
    package var receivedImageByteCount: Int { bootloader.image.count }
    /// The image received in the current DFU session.
    package var receivedImage: [UInt8] { bootloader.image }
    /// Every control-point opcode received, in order.
    package var commandLog: [LegacyDFUOpcode] { bootloader.commandLog }
    /// Leaving DFU mode or booting: not advertising.
    package var isBooting: Bool { cycle.isBooting || leaving != nil }

    // MARK: - Connection

    public func connectionStarted(mtu: Int, at time: Duration) {}

    public func connectionEnded(at time: Duration) {
        // DFU mode keeps its state; a bootloader that ended the link to leave DFU mode goes on.
        guard let leaving else { return }
        self.leaving = nil
        begin(leaving.next, silentUntil: max(time, leaving.silentUntil), at: time)
    }

    public func readValue(handle: UInt16) -> [UInt8]? {
        mode == .bootloader && handle == Self.versionHandle ? Self.version : nil
    }

    // MARK: - Time

    public func isAdvertising(at time: Duration) -> Bool { cycle.isAdvertising && leaving == nil }

    public var nextTimer: Duration? {
        let timeout = mode == .bootloader && cycle.phase == .running && leaving == nil ? bootloader.timeoutDeadline : nil
        return [cycle.deadline, timeout].compactMap { $0 }.min()
    }

    public func fireTimers(at time: Duration) -> [PeripheralEvent] {
        if cycle.due(at: time) == .booted {
            if mode == .bootloader { bootloader.restart(at: time) }
            return []
        }
        guard mode == .bootloader, cycle.phase == .running, leaving == nil, bootloader.timeoutDeadline <= time else { return [] }
        // DFU_TIMEOUT: dfu_transport_close, then a valid application starts or the chip resets.
        begin(applicationIsValid ? .application : .bootloader, silentUntil: time + bootTime, at: time)
        return [.reset(reason: "the bootloader's DFU timeout ended DFU mode (120 s without a packet)")]
    }

    public func powerCycle(at time: Duration) {
        leaving = nil
        begin(applicationIsValid ? .application : .bootloader, silentUntil: time + bootTime, at: time)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        bootloader.shiftClock(by: offset)
        if let leaving { self.leaving = (leaving.silentUntil + offset, leaving.next) }
    }

    /// RAM is lost; silent until `silentUntil`, then the device runs in `next`.
    private func begin(_ next: Mode, silentUntil: Duration, at time: Duration) {
        rebootCount += 1
        mode = next
        bootloader.restart(at: time)
        cycle.rebooted(at: time, silentFor: silentUntil - time)
    }

    // MARK: - Writes

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard mode == .bootloader, leaving == nil, !cycle.isBooting else { return [] }
        let names: [String]
        switch handle {
        case Self.controlPointHandle: names = LegacyDFUBootloader.commandNames(controlPoint: value)
        case Self.packetHandle: names = bootloader.expectsImageSizes ? ["image_sizes"] : []
        default: return []
        }
        return commandFaults.handle(names, at: time) {
            let replies = handle == Self.controlPointHandle
                ? bootloader.controlPoint(value, at: time) : bootloader.packet(value, at: time)
            return replies.map(output)
        }
    }

    private func output(_ reply: LegacyDFUReply) -> PeripheralOutput {
        switch reply {
        case let .notification(bytes, readyAt):
            return PeripheralOutput(pdu: .notification(handle: Self.controlPointHandle, value: bytes), readyAt: readyAt)
        case let .endDFU(readyAt, activation):
            leaveDFU(activation, at: readyAt)
            return PeripheralOutput(pdu: .terminate, readyAt: readyAt, disconnectAfterSending: true,
                                    disconnectReason: "the bootloader ended the link to leave DFU mode")
        }
    }

    /// 05 or 06: the work that follows the terminate, and where the device then runs.
    private func leaveDFU(_ activation: NordicInstalledImage?, at time: Duration) {
        let flash = bootloader.flash
        let settingsSave = flash.pageErase + flash.writePerByte * 64  // `bootloader_settings_save`: clear + store
        guard let activation else {
            leaving = (time + bootTime, applicationIsValid ? .application : .bootloader)
            return
        }
        let copy = flash.writeCost(offset: 0, count: activation.data.count)
        if activation.type == .application {
            // dfu_activate_app: erase bank 0, copy bank 1 over it, save the settings; main()
            // checks the application and jumps to it.
            applicationIsValid = true
            leaving = (time + copy + settingsSave + bootTime, .application)
        } else {
            // dfu_activate_sd / _bl: settings, reset, 100 ms, the swap, settings again.
            if activation.type != .bootloader { applicationIsValid = false }
            let work = settingsSave * 2 + Self.softDeviceSwapDelay + copy
            leaving = (time + work + bootTime, applicationIsValid ? .application : .bootloader)
        }
    }
}

extension NordicLegacyDFUDevice: CommandLogging {
    package var receivedCommands: [[String]] { commandFaults.log }
}
