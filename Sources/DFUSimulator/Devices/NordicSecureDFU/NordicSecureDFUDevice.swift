import DFUBytes
import DFUGATT
import DFUPackage

/// A simulated nRF5 SDK 15+ Secure DFU bootloader (`sim:nordic-secure-dfu`), optionally behind an
/// application with the buttonless DFU service.
///
/// GATT, as the real one: service 0xFE59 with the control point 8EC90001 (write, notify; value
/// handle 3, CCCD 4) and the packet 8EC90002 (write without response, and write so that
/// "packets written with response" can be measured; handle 6). It advertises "DfuTarg".
/// The protocol itself is `SecureDFUBootloader`.
///
/// With `buttonless` set the device first runs as an application advertising
/// "Nordic_Buttonless" with service 0xFE59 and the buttonless characteristic (8EC90003 unbonded,
/// 8EC90004 bonded; write, indicate; handle 9, CCCD 10). A write is refused (ATT error 0xFD)
/// until indications are enabled (ble_dfu.c `on_ctrlpt_write`). Opcode 01 answers `20 01 01`
/// and the application resets as soon as the indication is confirmed, with no timer
/// (ble_dfu_unbonded.c `enter_bootloader`, ble_dfu.c `on_hvc`, nrf_pwr_mgmt.c shutdown);
/// indications travel like notifications on the simulated link, so the link ends once it is
/// out. The bootloader starts (`boot`: the application's CRC check, then the SoftDevice) and
/// advertises on the application's address + 1 (unbonded: only the least significant byte is
/// incremented, as `gap_address_change` does) or on the same address (bonded).
///
/// Leaving DFU mode, as SDK 15-17 bootloaders do (`NordicSecureDFUDevice+Reset.swift`): the
/// last EXECUTE is answered, the settings are written and backed up, the bootloader ends the
/// link (LL terminate) and busy-waits 200 ms, then resets; it copies an application from
/// bank 1 to bank 0, resets again and starts it (buttonless) or comes back in DFU mode (no
/// buttonless service: the simulator has no application of its own; a SoftDevice or
/// bootloader update: DFU mode for the next image, 10 s continuation timeout). Silent from the
/// answer until it advertises. 120 s without DFU progress reset the bootloader too.
package final class NordicSecureDFUDevice: SimulatedPeripheral {
    package enum Mode: Sendable, Equatable {
        case application
        case bootloader
    }

    package static let serviceUUID = BluetoothUUID(uuid16: 0xFE59)
    package static let controlPointUUID = BluetoothUUID(string: "8EC90001-F315-4F60-9FB8-838830DAEA50")!
    package static let packetUUID = BluetoothUUID(string: "8EC90002-F315-4F60-9FB8-838830DAEA50")!
    package static let buttonlessUnbondedUUID = BluetoothUUID(string: "8EC90003-F315-4F60-9FB8-838830DAEA50")!
    package static let buttonlessBondedUUID = BluetoothUUID(string: "8EC90004-F315-4F60-9FB8-838830DAEA50")!
    package static let controlPointHandle: UInt16 = 3
    package static let packetHandle: UInt16 = 6
    package static let buttonlessHandle: UInt16 = 9
    /// The buttonless characteristic's Client Characteristic Configuration descriptor.
    static let buttonlessConfigurationHandle: UInt16 = 10
    /// Command names for `disconnect-on` / `disconnect-after-command`: one per control-point
    /// opcode, and `create`, `select` and `execute` also by object type as the profile names
    /// them (`create_data`, `select_command`, `execute_data`, ...); `enter_bootloader` and
    /// `set_adv_name` on the buttonless characteristic.
    package static let commandNames = [
        "protocol_version", "create", "create_command", "create_data", "set_prn", "checksum", "execute",
        "execute_command", "execute_data", "select", "select_command", "select_data", "mtu_get", "ping",
        "hw_version", "fw_version", "abort", "enter_bootloader", "set_adv_name",
    ]
    package static let defaultBootloaderName = "DfuTarg"
    package static let defaultApplicationName = "Nordic_Buttonless"

    package let applicationAddress: DeviceAddress
    package let buttonless: ButtonlessMode?
    /// From a reset to the first advertisement of the bootloader or application (`boot-ms`).
    package let bootTime: Duration
    package internal(set) var mode: Mode
    package internal(set) var rebootCount = 0
    private let applicationName: String
    let configuredBootloaderName: String
    var bootloaderName: String
    var bootloader: SecureDFUBootloader
    var cycle = PowerCycle()
    private var commandFaults: CommandDisconnectInjector
    /// The buttonless service answered 01: the application resets once the link is gone.
    var enteringBootloader = false
    private var indicationsEnabled = false
    /// How many of `installed` were activated (copied into place at a reset).
    package internal(set) var activatedCount = 0
    /// DFU mode's inactivity timeout: 120 s, or 10 s after a SoftDevice / bootloader update.
    var inactivityTimeout = SecureDFUTiming.inactivityTimeout
    /// From closing the transport to the reset: BLE's 200 ms (`ble_dfu_transport_close`); the
    /// serial transports close without a wait (`NordicSerialDFUDevice`).
    var transportCloseWait = SecureDFUTiming.disconnectWait

    /// - Parameters:
    ///   - name: the advertised name of whatever runs first: the application in buttonless
    ///     mode, else the bootloader.
    ///   - publicKeyDER: the ECDSA P-256 key (DER SubjectPublicKeyInfo) init packets must be
    ///     signed with; nil accepts unsigned and signed packets without checking.
    ///   - capacity: the largest image the bank takes.
    ///   - softDeviceID: the SoftDevice FWID `sd_req` must list; nil skips the check.
    package init(address: DeviceAddress, name: String? = nil, buttonless: ButtonlessMode? = nil,
                publicKeyDER: [UInt8]? = nil, hardwareVersion: UInt32 = 52, softDeviceID: UInt32? = nil,
                capacity: Int = 0xD_0000, resumePolicy: SecureDFUResumePolicy = .ram,
                flash: FlashTiming = FlashTiming(), failingCommands: Set<Int> = [],
                bootTime: Duration = SecureDFUTiming.defaultBootTime, commandDisconnects: [CommandDisconnect] = []) {
        self.applicationAddress = address
        self.buttonless = buttonless
        self.mode = buttonless == nil ? .bootloader : .application
        self.applicationName = buttonless == nil ? Self.defaultApplicationName : name ?? Self.defaultApplicationName
        self.configuredBootloaderName = buttonless == nil ? name ?? Self.defaultBootloaderName : Self.defaultBootloaderName
        self.bootloaderName = configuredBootloaderName
        let validator = SecureDFUInitValidator(publicKeyDER: publicKeyDER, hardwareVersion: hardwareVersion,
                                               softDeviceID: softDeviceID, capacity: capacity)
        self.bootloader = SecureDFUBootloader(validator: validator, flash: flash, resumePolicy: resumePolicy,
                                              failingCommands: failingCommands)
        self.bootTime = bootTime
        self.commandFaults = CommandDisconnectInjector(commandDisconnects)
    }

    /// Where the bootloader advertises.
    package var bootloaderAddress: DeviceAddress {
        guard buttonless == .unbonded else { return applicationAddress }
        var bytes = applicationAddress.bytes
        bytes[5] &+= 1  // addr[0] += 1: the least significant byte, without carry
        return DeviceAddress(bytes: bytes)!
    }

    package var advertisement: Advertisement {
        switch mode {
        case .application:
            return Advertisement(address: applicationAddress, name: applicationName,
                                 serviceUUIDs: [Self.serviceUUID], rssi: -45)
        case .bootloader:
            return Advertisement(address: bootloaderAddress, name: bootloaderName,
                                 serviceUUIDs: [Self.serviceUUID], rssi: -45)
        }
    }

    package var services: [GATTService] {
        switch mode {
        case .application:
            let uuid = buttonless == .bonded ? Self.buttonlessBondedUUID : Self.buttonlessUnbondedUUID
            return [GATTService(uuid: Self.serviceUUID, characteristics: [
                GATTCharacteristic(service: Self.serviceUUID, uuid: uuid, valueHandle: Self.buttonlessHandle,
                                   properties: [.write, .indicate]),
            ])]
        case .bootloader:
            return [GATTService(uuid: Self.serviceUUID, characteristics: [
                GATTCharacteristic(service: Self.serviceUUID, uuid: Self.controlPointUUID,
                                   valueHandle: Self.controlPointHandle, properties: [.write, .notify]),
                GATTCharacteristic(service: Self.serviceUUID, uuid: Self.packetUUID,
                                   valueHandle: Self.packetHandle, properties: [.writeWithoutResponse, .write]),
            ])]
        }
    }

    // MARK: - State, for tests and benchmarks

    /// Images post-validated so far, oldest first; each is activated (copied into place) at the
    /// reset that follows (`activatedCount`).
    package var installed: [NordicInstalledImage] { bootloader.installed }
    /// The firmware bank's bytes (received in this transfer, or the last image until a new
    /// transfer overwrites it).
    package var bank: [UInt8] { bootloader.bank }
    /// Leaving DFU mode or booting: not advertising.
    package var isBooting: Bool { cycle.isBooting || cycle.isResetDue || enteringBootloader }
    /// Firmware bytes received in the current transfer (`firmware_image_offset`).
    package var receivedFirmwareByteCount: Int { bootloader.progress.offset }
    /// The end of the last executed data object (`firmware_image_offset_last`).
    package var executedFirmwareByteCount: Int { bootloader.progress.offsetLast }
    /// The firmware received in the current transfer.
    package var receivedFirmware: [UInt8] { bootloader.receivedFirmware }
    /// The init packet held (complete or not).
    package var storedInitPacket: [UInt8] { bootloader.progress.command }
    /// Whether an init packet was executed and accepted for the current transfer.
    package var hasAcceptedInitPacket: Bool { bootloader.progress.acceptedInit != nil }
    /// Every control-point opcode received, in order.
    package var commandLog: [SecureDFUOpcode] { bootloader.commandLog }

    // MARK: - SimulatedPeripheral

    public func connectionStarted(mtu: Int, at time: Duration) {
        bootloader.connectionStarted()
    }

    public func connectionEnded(at time: Duration) {
        indicationsEnabled = false
        if mode == .bootloader { bootloader.connectionEnded() }
        guard enteringBootloader else { return }
        enteringBootloader = false
        restart(into: .bootloader, at: time, silentFor: bootTime)
    }

    public func readValue(handle: UInt16) -> [UInt8]? { nil }

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard !cycle.isBooting, !enteringBootloader else { return [] }
        switch (mode, handle) {
        case (.application, Self.buttonlessConfigurationHandle):
            indicationsEnabled = (value.first ?? 0) & 0x02 != 0
            return []
        case (.application, Self.buttonlessHandle):
            return buttonlessWrite(value, at: time)
        case (.bootloader, Self.controlPointHandle):
            return commandFaults.handle(bootloader.commandNames(controlPoint: value), at: time) {
                outputs(bootloader.controlPoint(value, at: time))
            }
        case (.bootloader, Self.packetHandle):
            return outputs(bootloader.packet(value, at: time))
        default:
            return []  // a CCCD, or a characteristic this mode does not have
        }
    }

    private func buttonlessWrite(_ value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard let buttonless else { return [] }
        guard indicationsEnabled else {
            // BLE_GATT_STATUS_ATTERR_CPS_CCCD_CONFIG_ERROR
            return [PeripheralOutput(pdu: .errorResponse(code: 0xFD, handle: Self.buttonlessHandle), readyAt: time)]
        }
        let names = value.first == ButtonlessOpcode.enterBootloader.rawValue ? ["enter_bootloader"]
            : value.first == ButtonlessOpcode.setAdvertisementName.rawValue ? ["set_adv_name"] : []
        return commandFaults.handle(names, at: time) {
            guard let outcome = ButtonlessDFUService(mode: buttonless).receive(value) else { return [] }
            if let name = outcome.newBootloaderName { bootloaderName = name }
            if outcome.enterBootloader { enteringBootloader = true }
            return [PeripheralOutput(pdu: .notification(handle: Self.buttonlessHandle, value: outcome.response),
                                     readyAt: time, disconnectAfterSending: outcome.enterBootloader,
                                     disconnectReason: "the application reset into its bootloader")]
        }
    }

    private func outputs(_ replies: [SecureDFUReply]) -> [PeripheralOutput] {
        replies.flatMap { reply in
            let answer = PeripheralOutput(pdu: .notification(handle: Self.controlPointHandle, value: reply.bytes),
                                          readyAt: reply.readyAt)
            guard let reset = reply.reset else { return [answer] }
            return [answer, leaveDFUMode(reset, answeredAt: reply.readyAt)]
        }
    }
}

extension NordicSecureDFUDevice: CommandLogging {
    package var receivedCommands: [[String]] { commandFaults.log }
}
