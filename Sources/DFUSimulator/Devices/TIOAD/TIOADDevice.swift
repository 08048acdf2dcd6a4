import DFUBytes
import DFUGATT
import DFUPackage

/// A simulated CC26x2 running an off-chip OAD application of TI's BLE5-Stack (`sim:ti-oad`),
/// as the SDK's `simple_peripheral_oad_offchip` with `oad.c` (see `TIOADTarget` for the
/// protocol and the sources).
///
/// GATT (oad.c `oadAttrTbl`): service F000FFC0-0451-4000-B000-000000000000; Image Identify
/// FFC1 (write, write without response, notify; value handle 3, CCCD 4), Image Block FFC2
/// (the same; 7, CCCD 8), Extended Control FFC5 (write without response, notify; 11, CCCD 12).
/// Reads are refused. Notifications go out only once the central enabled them (oad.c
/// `oadSendNotification`: "Notifications are required for OAD"). It advertises the OAD
/// service (the SDK's examples advertise their Simple Profile instead).
///
/// Around the profile, what the example application does:
/// - the MTU exchange sets the block size (`OAD_setBlockSize` on `ATT_MTU_UPDATED_EVENT`);
/// - a lost link cancels the OAD (`OAD_cancel` on `GAP_LINK_TERMINATED_EVENT`);
/// - the third refused identify ends the link (`OAD_IMG_ID_TIMEOUT`);
/// - after the enable answer, once the controller sent it, `SysCtrlSystemReset()`: the link
///   drops without LL terminate (`resetDelay`, 100 ms, stands for the connection events the
///   application waits; `reset-delay-ms`). The off-chip BIM then copies the image from
///   external flash to internal flash, computes its CRC-32 and starts it (`checkImagesExtFlash`):
///   silent for the copy (`FlashTiming`: an erase per 8 KiB page and the writes), the CRC, and
///   `boot` (1 s, assumed: the SDK gives no number; `boot-ms`). The new image then answers
///   07 with its `softVer`.
/// A power glitch (`reboot-after`) restarts the running image; the OAD under way is lost.
///
/// Options (`TIOADSettings`): `bim-crc=fails`, a BIM whose CRC check of the copied image fails
/// and that reverts to the factory image (the image the device started with); `enable-answer=lost`,
/// a reset that comes before the answer to enable goes out. Control `07` always answers the
/// softVer of the image that runs, before and after an update.
package final class TIOADDevice: SimulatedPeripheral {
    package struct Timing: Sendable, Equatable {
        package var resetDelay: Duration
        package var boot: Duration
        /// `OAD_open(OAD_DEFAULT_INACTIVITY_TIME)`: 10 s.
        package var inactivity: Duration

        package init(resetDelay: Duration = .milliseconds(100), boot: Duration = .milliseconds(1000),
                    inactivity: Duration = .seconds(10)) {
            self.resetDelay = resetDelay
            self.boot = boot
            self.inactivity = inactivity
        }
    }

    package static let serviceUUID = BluetoothUUID(string: "F000FFC0-0451-4000-B000-000000000000")!
    package static let identifyUUID = BluetoothUUID(string: "F000FFC1-0451-4000-B000-000000000000")!
    package static let blockUUID = BluetoothUUID(string: "F000FFC2-0451-4000-B000-000000000000")!
    package static let controlUUID = BluetoothUUID(string: "F000FFC5-0451-4000-B000-000000000000")!
    static let identifyHandle: UInt16 = 3
    static let blockHandle: UInt16 = 7
    static let controlHandle: UInt16 = 11
    /// What 0x10 answers: ChipInfo's chip type, family and revision for a CC2652R (assumed values).
    static let chipType: UInt8 = 0x0B
    static let chipFamily: UInt8 = 0x06
    static let hardwareRevision: UInt8 = 0x21
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's
    /// (`identify`, `image_block`, the control opcodes), and the other control opcodes by name.
    package static let commandNames = [
        "identify", "image_block", "get_block_size", "image_count", "start", "enable", "cancel",
        "disable_block_notifications", "get_sw_version", "get_image_status", "get_profile_version",
        "get_device_type", "get_image_info", "erase_bonds",
    ]

    /// A running image as an application is built: imgID, BIM 3, metadata 1, softVer "0001".
    public static func factoryImage(imageID: String = "CC26x2R1", softwareVersion: String = "0001") -> [UInt8] {
        TIOADImageHeader(imageID: imageID, softwareVersion: softwareVersion).encoded
    }

    package let advertisement: Advertisement
    package let timing: Timing
    var target: TIOADTarget
    private(set) var cycle = PowerCycle()
    private var commandFaults: CommandDisconnectInjector
    /// Enabled: the image the BIM copies at the coming reset.
    private var enabled: [UInt8]?
    /// The image the device started with, which `OAD_open` backs up to external flash as the
    /// factory image and the BIM reverts to.
    package let factoryImage: [UInt8]
    /// The last image the BIM copied and then refused at its CRC check (`bim-crc=fails`).
    package private(set) var bimRejected: [UInt8]?
    private let bimCRCFails: Bool
    private let enableAnswerLost: Bool
    package private(set) var rebootCount = 0

    package init(address: DeviceAddress, name: String = "TI OAD Target", imageID: String = "CC26x2R1",
                running: [UInt8]? = nil, flash: FlashTiming = FlashTiming(), timing: Timing = Timing(),
                corruptBlock: Int? = nil, failingBlockWrites: Set<Int> = [], commandDisconnects: [CommandDisconnect] = [],
                bimCRCFails: Bool = false, enableAnswerLost: Bool = false) {
        self.advertisement = Advertisement(address: address, name: name, serviceUUIDs: [Self.serviceUUID], rssi: -42)
        self.timing = timing
        self.factoryImage = running ?? Self.factoryImage(imageID: imageID)
        self.bimCRCFails = bimCRCFails
        self.enableAnswerLost = enableAnswerLost
        self.target = TIOADTarget(running: running ?? Self.factoryImage(imageID: imageID),
                                  imageID: TIOADImageHeader(imageID: imageID).imageID, flash: flash,
                                  inactivityTimeout: timing.inactivity, corruptBlock: corruptBlock)
        self.target.failingBlockWrites = failingBlockWrites
        self.commandFaults = CommandDisconnectInjector(commandDisconnects)
    }

    package var services: [GATTService] {
        [GATTService(uuid: Self.serviceUUID, characteristics: [
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.identifyUUID, valueHandle: Self.identifyHandle,
                               properties: [.write, .writeWithoutResponse, .notify]),
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.blockUUID, valueHandle: Self.blockHandle,
                               properties: [.write, .writeWithoutResponse, .notify]),
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.controlUUID, valueHandle: Self.controlHandle,
                               properties: [.writeWithoutResponse, .notify]),
        ])]
    }

    // MARK: - State, for tests

    /// The image the device runs (its header at least).
    package var running: [UInt8] { target.running }
    /// What the OAD under way has written to external flash; nil when no OAD is under way.
    package var downloaded: [UInt8]? { target.downloadedBytes }
    /// The last image whose download ended with a matching CRC (it stays in external flash).
    package var lastCompleted: [UInt8]? { target.lastCompleted }
    package var blockSize: Int { target.blockSize }
    package var isOADIdle: Bool { target.isIdle }
    package var isBooting: Bool { cycle.isBooting }
    /// The download is whole and its CRC matched; enable would be accepted.
    package var isComplete: Bool { target.isComplete }
    /// `image` was enabled and the reset has not come yet.
    func isResetPending(with image: [UInt8]) -> Bool { cycle.isResetDue && enabled == image }
    /// Every block number written, in order.
    package private(set) var blockLog: [Int] = []

    // MARK: - SimulatedPeripheral

    public func connectionStarted(mtu: Int, at time: Duration) {
        target.mtuExchanged(mtu)
    }

    public func connectionEnded(at time: Duration) {
        target.linkEnded()
    }

    public func readValue(handle: UInt16) -> [UInt8]? { nil }

    public func isAdvertising(at time: Duration) -> Bool { cycle.isAdvertising }

    public var nextTimer: Duration? {
        [cycle.deadline, cycle.isBooting ? nil : target.inactivityDeadline].compactMap { $0 }.min()
    }

    public func fireTimers(at time: Duration) -> [PeripheralEvent] {
        switch cycle.due(at: time) {
        case .reset?:
            let image = enabled
            enabled = nil
            reboot(at: time, into: image)
            return [.reset(reason: "the device reset to start the enabled image (SysCtrlSystemReset: no LL terminate)")]
        case .booted?:
            return []
        case nil:
            target.inactivityExpired(at: time)
            return []
        }
    }

    public func powerCycle(at time: Duration) {
        enabled = nil
        reboot(at: time, into: nil)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        target.shiftClock(by: offset)
    }

    /// The reset: RAM is lost (the OAD with it); the BIM copies `image` if one was enabled,
    /// checks its CRC-32 and starts it, else the running image starts again.
    private func reboot(at time: Duration, into image: [UInt8]?) {
        rebootCount += 1
        target.linkEnded()
        var silence = timing.boot
        if let image, TIOADTarget.crcMatches(image) {
            silence += copyTime(image)
            if bimCRCFails {
                // CRC_INVALID: no jump; the factory image is copied back and checked.
                bimRejected = image
                silence += copyTime(factoryImage)
                target.running = factoryImage
            } else {
                target.running = image
            }
        }
        cycle.rebooted(at: time, silentFor: silence)
    }

    /// The BIM's erase of the internal pages, the copy and the CRC-32 of the copy.
    private func copyTime(_ image: [UInt8]) -> Duration {
        let pages = (image.count + Int(TIOADTarget.internalPageSize) - 1) / Int(TIOADTarget.internalPageSize)
        return target.flash.pageErase * pages + target.flash.writePerByte * image.count + target.flash.hashPerByte * image.count
    }

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard !cycle.isBooting else { return [] }
        switch handle {
        case Self.identifyHandle + 1, Self.blockHandle + 1, Self.controlHandle + 1:
            subscribe(handle: handle - 1, enabled: value.first.map { $0 & 0x01 != 0 } ?? false)
            return []
        case Self.identifyHandle:
            return commandFaults.handle(["identify"], at: time) { outputs(target.identify(value, at: time)) }
        case Self.blockHandle:
            if value.count >= 4 { blockLog.append(Int(value[0]) | Int(value[1]) << 8 | Int(value[2]) << 16 | Int(value[3]) << 24) }
            return commandFaults.handle(["image_block"], at: time) { outputs(target.block(value, at: time)) }
        case Self.controlHandle:
            let names = value.first.flatMap { TIOADControlOpcode(rawValue: $0).commandName }.map { [$0] } ?? []
            return commandFaults.handle(names, at: time) { outputs(target.control(value, at: time)) }
        default:
            return []
        }
    }

    private func subscribe(handle: UInt16, enabled: Bool) {
        let characteristic: TIOADCharacteristic
        switch handle {
        case Self.identifyHandle: characteristic = .identify
        case Self.blockHandle: characteristic = .block
        default: characteristic = .control
        }
        if enabled { target.notificationsEnabled.insert(characteristic) } else { target.notificationsEnabled.remove(characteristic) }
    }

    private func outputs(_ replies: [TIOADReply]) -> [PeripheralOutput] {
        let resetsNow = enableAnswerLost && replies.contains { if case .enabled = $0 { return true } else { return false } }
        return replies.compactMap { reply -> PeripheralOutput? in
            switch reply {
            case let .notification(characteristic, value, readyAt):
                // enable-answer=lost: the reset comes before `04 00` is sent.
                if resetsNow, characteristic == .control, value.first == TIOADControlOpcode.enableImage.rawValue { return nil }
                let handle = characteristic == .identify ? Self.identifyHandle : Self.controlHandle
                return PeripheralOutput(pdu: .notification(handle: handle, value: value), readyAt: readyAt)
            case let .endLink(reason, readyAt):
                return PeripheralOutput(pdu: .terminate, readyAt: readyAt, disconnectAfterSending: true,
                                        disconnectReason: reason)
            case let .enabled(image, readyAt):
                enabled = image
                cycle.scheduleReset(at: resetsNow ? readyAt : readyAt + timing.resetDelay, advertises: false)
                return nil
            }
        }
    }
}

extension TIOADDevice: CommandLogging {
    package var receivedCommands: [[String]] { commandFaults.log }
}
