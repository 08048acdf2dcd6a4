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
/// 8EC90004 bonded; write, indicate; handle 9, CCCD 10). Opcode 01 answers `20 01 01` and the
/// device resets into the bootloader, which advertises on the application's address + 1
/// (unbonded: only the least significant byte is incremented, as `gap_address_change` does) or
/// on the same address (bonded). After an application image is installed it boots that
/// application again. Indications travel like notifications on the simulated link (the link
/// has no confirmation PDU), and the CCCD is not enforced.
public final class NordicSecureDFUDevice: SimulatedPeripheral {
    public enum Mode: Sendable, Equatable {
        case application
        case bootloader
    }

    public static let serviceUUID = BluetoothUUID(uuid16: 0xFE59)
    public static let controlPointUUID = BluetoothUUID(string: "8EC90001-F315-4F60-9FB8-838830DAEA50")!
    public static let packetUUID = BluetoothUUID(string: "8EC90002-F315-4F60-9FB8-838830DAEA50")!
    public static let buttonlessUnbondedUUID = BluetoothUUID(string: "8EC90003-F315-4F60-9FB8-838830DAEA50")!
    public static let buttonlessBondedUUID = BluetoothUUID(string: "8EC90004-F315-4F60-9FB8-838830DAEA50")!
    public static let controlPointHandle: UInt16 = 3
    public static let packetHandle: UInt16 = 6
    public static let buttonlessHandle: UInt16 = 9
    /// Command names for `disconnect-on` / `disconnect-after-command`: one per control-point
    /// opcode, and `create`, `select` and `execute` also by object type as the profile names
    /// them (`create_data`, `select_command`, `execute_data`, ...); `enter_bootloader` and
    /// `set_adv_name` on the buttonless characteristic.
    public static let commandNames = [
        "protocol_version", "create", "create_command", "create_data", "set_prn", "checksum", "execute",
        "execute_command", "execute_data", "select", "select_command", "select_data", "mtu_get", "ping",
        "hw_version", "fw_version", "abort", "enter_bootloader", "set_adv_name",
    ]
    public static let defaultBootloaderName = "DfuTarg"
    public static let defaultApplicationName = "Nordic_Buttonless"

    public let applicationAddress: DeviceAddress
    public let buttonless: ButtonlessMode?
    public private(set) var mode: Mode
    public private(set) var rebootCount = 0
    private let applicationName: String
    private let configuredBootloaderName: String
    private var bootloaderName: String
    private var bootloader: SecureDFUBootloader
    private var pendingReboot: PendingReboot?

    private enum PendingReboot {
        case intoBootloader
        case intoApplication
        case stayInBootloader
    }

    /// - Parameters:
    ///   - name: the advertised name of whatever runs first: the application in buttonless
    ///     mode, else the bootloader.
    ///   - publicKeyDER: the ECDSA P-256 key (DER SubjectPublicKeyInfo) init packets must be
    ///     signed with; nil accepts unsigned and signed packets without checking.
    ///   - capacity: the largest image the bank takes.
    ///   - softDeviceID: the SoftDevice FWID `sd_req` must list; nil skips the check.
    public init(address: DeviceAddress, name: String? = nil, buttonless: ButtonlessMode? = nil,
                publicKeyDER: [UInt8]? = nil, hardwareVersion: UInt32 = 52, softDeviceID: UInt32? = nil,
                capacity: Int = 0xD_0000, resumePolicy: SecureDFUResumePolicy = .ram,
                flash: FlashTiming = FlashTiming(), failingCommands: Set<Int> = []) {
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
    }

    /// Where the bootloader advertises.
    public var bootloaderAddress: DeviceAddress {
        guard buttonless == .unbonded else { return applicationAddress }
        var bytes = applicationAddress.bytes
        bytes[5] &+= 1  // addr[0] += 1: the least significant byte, without carry
        return DeviceAddress(bytes: bytes)!
    }

    public var advertisement: Advertisement {
        switch mode {
        case .application:
            return Advertisement(address: applicationAddress, name: applicationName,
                                 serviceUUIDs: [Self.serviceUUID], rssi: -45)
        case .bootloader:
            return Advertisement(address: bootloaderAddress, name: bootloaderName,
                                 serviceUUIDs: [Self.serviceUUID], rssi: -45)
        }
    }

    public var services: [GATTService] {
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

    /// Images installed so far, oldest first.
    public var installed: [NordicInstalledImage] { bootloader.installed }
    /// Firmware bytes received in the current transfer (`firmware_image_offset`).
    public var receivedFirmwareByteCount: Int { bootloader.progress.offset }
    /// The end of the last executed data object (`firmware_image_offset_last`).
    public var executedFirmwareByteCount: Int { bootloader.progress.offsetLast }
    /// The firmware received in the current transfer.
    public var receivedFirmware: [UInt8] { bootloader.receivedFirmware }
    /// The init packet held (complete or not).
    public var storedInitPacket: [UInt8] { bootloader.progress.command }
    /// Whether an init packet was executed and accepted for the current transfer.
    public var hasAcceptedInitPacket: Bool { bootloader.progress.acceptedInit != nil }
    /// Every control-point opcode received, in order.
    public var commandLog: [SecureDFUOpcode] { bootloader.commandLog }

    // MARK: - SimulatedPeripheral

    public func connectionStarted(mtu: Int, at time: Duration) {
        bootloader.connectionStarted()
    }

    public func connectionEnded(at time: Duration) {
        if mode == .bootloader { bootloader.connectionEnded() }
        guard let reboot = pendingReboot else { return }
        pendingReboot = nil
        rebootCount += 1
        switch reboot {
        case .intoBootloader:
            mode = .bootloader
        case .intoApplication:
            mode = .application
            bootloaderName = configuredBootloaderName
        case .stayInBootloader:
            break
        }
        bootloader.reset()
    }

    public func readValue(handle: UInt16) -> [UInt8]? { nil }

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        switch (mode, handle) {
        case (.application, Self.buttonlessHandle):
            return buttonlessWrite(value, at: time)
        case (.bootloader, Self.controlPointHandle):
            return outputs(bootloader.controlPoint(value, at: time))
        case (.bootloader, Self.packetHandle):
            return outputs(bootloader.packet(value, at: time))
        default:
            return []  // a CCCD, or a characteristic this mode does not have
        }
    }

    private func buttonlessWrite(_ value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard let buttonless, pendingReboot == nil,
              let outcome = ButtonlessDFUService(mode: buttonless).receive(value) else { return [] }
        if let name = outcome.newBootloaderName { bootloaderName = name }
        if outcome.enterBootloader { pendingReboot = .intoBootloader }
        return [PeripheralOutput(pdu: .notification(handle: Self.buttonlessHandle, value: outcome.response),
                                 readyAt: time, disconnectAfterSending: outcome.enterBootloader)]
    }

    private func outputs(_ replies: [SecureDFUReply]) -> [PeripheralOutput] {
        replies.map { reply in
            if reply.reboot {
                let installedApplication = bootloader.installed.last?.type == .application
                    && reply.bytes == SecureDFUResponse(.execute).bytes
                pendingReboot = buttonless != nil && installedApplication ? .intoApplication : .stayInBootloader
            }
            return PeripheralOutput(pdu: .notification(handle: Self.controlPointHandle, value: reply.bytes),
                                    readyAt: reply.readyAt, disconnectAfterSending: reply.reboot)
        }
    }
}
