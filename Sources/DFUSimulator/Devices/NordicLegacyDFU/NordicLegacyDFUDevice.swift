import DFUBytes
import DFUGATT

/// A simulated nRF5 SDK <= 11 legacy DFU bootloader (`sim:nordic-legacy-dfu`).
///
/// GATT: service 00001530-1212-EFDE-1523-785FEABCD123 with the packet 1532 (write without
/// response; handle 3), the control point 1531 (write, notify; handle 6, CCCD 7) and the DFU
/// version 1534 (read: `08 00`, version 0.8; handle 9). It advertises "DfuTarg". The protocol is
/// `LegacyDFUBootloader`; its state does not survive a disconnect. SDK 11 bootloaders use
/// ATT_MTU 23 (20-byte packets); the simulator accepts what the link's MTU allows.
public final class NordicLegacyDFUDevice: SimulatedPeripheral {
    public static let serviceUUID = BluetoothUUID(string: "00001530-1212-EFDE-1523-785FEABCD123")!
    public static let controlPointUUID = BluetoothUUID(string: "00001531-1212-EFDE-1523-785FEABCD123")!
    public static let packetUUID = BluetoothUUID(string: "00001532-1212-EFDE-1523-785FEABCD123")!
    public static let versionUUID = BluetoothUUID(string: "00001534-1212-EFDE-1523-785FEABCD123")!
    public static let packetHandle: UInt16 = 3
    public static let controlPointHandle: UInt16 = 6
    public static let versionHandle: UInt16 = 9
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's
    /// (`image_sizes` is the packet write of the three sizes after `start_dfu`), plus `reset`
    /// (06) and `report_size` (07).
    public static let commandNames = [
        "start_dfu", "image_sizes", "init_start", "init_complete", "set_prn", "receive_firmware", "validate",
        "activate", "reset", "report_size",
    ]
    /// DFU_REVISION 0x0008: major 0, minor 8 (SDK 7-11 with init packets).
    public static let version: [UInt8] = [0x08, 0x00]

    public let advertisement: Advertisement
    public private(set) var rebootCount = 0
    private var bootloader: LegacyDFUBootloader
    private var resetPending = false

    public init(address: DeviceAddress, name: String = "DfuTarg", capacity: Int = 0x3_B000,
                flash: FlashTiming = FlashTiming(), failingCommands: Set<Int> = []) {
        self.advertisement = Advertisement(address: address, name: name, serviceUUIDs: [Self.serviceUUID], rssi: -45)
        self.bootloader = LegacyDFUBootloader(flash: flash, capacity: capacity, failingCommands: failingCommands)
    }

    public var services: [GATTService] {
        [GATTService(uuid: Self.serviceUUID, characteristics: [
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.packetUUID, valueHandle: Self.packetHandle,
                               properties: [.writeWithoutResponse]),
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.controlPointUUID,
                               valueHandle: Self.controlPointHandle, properties: [.write, .notify]),
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.versionUUID, valueHandle: Self.versionHandle,
                               properties: [.read]),
        ])]
    }

    /// Images installed so far, oldest first.
    public var installed: [NordicInstalledImage] { bootloader.installed }
    /// Image bytes received in the current attempt.
    public var receivedImageByteCount: Int { bootloader.image.count }
    /// Every control-point opcode received, in order.
    public var commandLog: [LegacyDFUOpcode] { bootloader.commandLog }

    public func connectionStarted(mtu: Int, at time: Duration) {}

    public func connectionEnded(at time: Duration) {
        if resetPending { rebootCount += 1 }
        resetPending = false
        bootloader.restart()
    }

    public func readValue(handle: UInt16) -> [UInt8]? {
        handle == Self.versionHandle ? Self.version : nil
    }

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        let replies: [LegacyDFUReply]
        switch handle {
        case Self.controlPointHandle: replies = bootloader.controlPoint(value, at: time)
        case Self.packetHandle: replies = bootloader.packet(value, at: time)
        default: return []
        }
        return replies.map { reply in
            switch reply {
            case let .notification(bytes, readyAt):
                return PeripheralOutput(pdu: .notification(handle: Self.controlPointHandle, value: bytes), readyAt: readyAt)
            case let .reset(readyAt):
                resetPending = true
                return PeripheralOutput(pdu: .terminate, readyAt: readyAt, disconnectAfterSending: true)
            }
        }
    }
}
