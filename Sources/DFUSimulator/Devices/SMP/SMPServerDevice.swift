import DFUBytes
import DFUGATT
import DFUPackage

/// A Zephyr application with an MCUmgr SMP server over BLE and MCUboot (`sim:mcumgr-smp`).
///
/// Requests arrive as writes without response (write requests work too) on one
/// characteristic; a frame longer than one write spans several writes and is reassembled by
/// the header's length. Answers leave as notifications of at most ATT_MTU-3 bytes. The device
/// handles one request at a time (`requestOverhead` plus flash time each); at most `buf_count`
/// requests may wait or be processed, further ones are dropped.
///
/// Reset, as Zephyr and MCUboot do it (settings `resetDelay`, `bootTime`, `swapTime`):
/// `reset` is answered at once and the old image keeps running for 250 ms, answering
/// requests and, once the central let go, advertising and accepting a new connection; then
/// the device reboots and its link drops (`sys_reboot` tears nothing down). MCUboot swaps a
/// marked slot (seconds for large images) or reverts an unconfirmed one, silent all the while;
/// then the application boots and advertises. A power glitch (`reboot-after`) reboots the same
/// way at once. Slots live in flash and survive; the upload state is in RAM and does not (a
/// disconnect keeps it).
public final class SMPServerDevice: SimulatedPeripheral {
    package static let serviceUUID = BluetoothUUID(string: "8D53DC1D-1DB7-4CD3-868B-8A527460AA84")!
    package static let characteristicUUID = BluetoothUUID(string: "DA2E7828-FBCE-4E01-AE9E-261174997C48")!
    package static let frameFormat = LengthHeaderFormat(headerSize: 8, lengthOffset: 2, lengthWidth: 2, endianness: .big)
    static let characteristicHandle: UInt16 = 3
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's where a
    /// request maps to one (`image_test`: an image state write with `confirm` false;
    /// `image_confirm`: with `confirm` true, with or without a hash).
    package static let commandNames = ["echo", "reset", "params", "image_list", "image_test", "image_confirm",
                                      "upload", "image_erase"]
    /// The image the device runs when it leaves the factory: version 1.0.0, 48 KiB.
    public static let factoryImage = SMPSlotImage(bytes: SimulatedMCUbootImage.make(
        payload: (0..<49_152).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) },
        version: MCUbootImageVersion(major: 1, minor: 0, revision: 0, build: 0)))!

    public let advertisement: Advertisement
    /// The SMP server: the protocol logic and the slots.
    public internal(set) var server: SMPServer
    private var reassembler = Reassembler(format: SMPServerDevice.frameFormat)
    private var mtu = 23
    private var busyUntil: Duration = .zero
    /// When each accepted request's processing ends, oldest first.
    private var processingEnds: [Duration] = []
    private(set) var cycle = PowerCycle()
    private var commandFaults: CommandDisconnectInjector
    /// Requests dropped because `buf_count` requests were already waiting.
    package private(set) var droppedRequestCount = 0
    package private(set) var rebootCount = 0
    /// What MCUboot did at the last boot.
    package private(set) var lastBoot = MCUbootSlots.BootAction.none

    /// A device at `address` advertising `name`, with `factoryImage` in slot 0.
    public init(address: DeviceAddress, name: String = "Zephyr SMP", settings: SMPServerSettings = SMPServerSettings(),
                factoryImage: SMPSlotImage = SMPServerDevice.factoryImage) {
        self.advertisement = Advertisement(address: address, name: name, serviceUUIDs: [Self.serviceUUID], rssi: -45)
        self.server = SMPServer(settings: settings, factoryImage: factoryImage)
        self.commandFaults = CommandDisconnectInjector(settings.commandDisconnects)
    }

    public var services: [GATTService] {
        [GATTService(uuid: Self.serviceUUID, characteristics: [
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.characteristicUUID,
                               valueHandle: Self.characteristicHandle,
                               properties: [.writeWithoutResponse, .write, .notify]),
        ])]
    }

    /// The image slots as they are now.
    public var slots: MCUbootSlots { server.slots }
    /// A reset was answered and the reboot has not come yet.
    package var isResetPending: Bool { cycle.isResetDue }
    /// Rebooted, and not advertising yet (MCUboot swapping, the application starting).
    package var isBooting: Bool { cycle.isBooting }

    public func connectionStarted(mtu: Int, at time: Duration) {
        self.mtu = mtu
        reassembler.reset()
    }

    public func connectionEnded(at time: Duration) {
        // A half-received frame and queued answers are lost; slots and the upload are not.
        reassembler.reset()
        processingEnds.removeAll()
    }

    public func readValue(handle: UInt16) -> [UInt8]? { nil }

    // MARK: - Time

    public func isAdvertising(at time: Duration) -> Bool { cycle.isAdvertising }
    public var nextTimer: Duration? { cycle.deadline }

    public func fireTimers(at time: Duration) -> [PeripheralEvent] {
        switch cycle.due(at: time) {
        case .reset?:
            reboot(at: time)
            return [.reset(reason: "the device rebooted (its reset came due \(server.settings.resetDelay) after the request)")]
        case .booted?, nil:
            return []
        }
    }

    public func powerCycle(at time: Duration) {
        reboot(at: time)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        busyUntil += offset
        processingEnds = processingEnds.map { $0 + offset }
    }

    /// RAM is lost, MCUboot swaps what is marked, the application starts.
    private func reboot(at time: Duration) {
        rebootCount += 1
        reassembler.reset()
        processingEnds.removeAll()
        busyUntil = time
        lastBoot = server.reboot()
        cycle.rebooted(at: time, silentFor: server.settings.silence(after: lastBoot))
    }

    // MARK: - Requests

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard handle == Self.characteristicHandle, !cycle.isBooting else { return [] }
        let frames: [[UInt8]]
        do {
            frames = try reassembler.append(value)
        } catch {
            reassembler.reset()  // cannot happen with a 16-bit length; drop the garbage
            return []
        }
        var outputs: [PeripheralOutput] = []
        for frame in frames {
            processingEnds.removeAll { $0 <= time }
            guard processingEnds.count < server.settings.bufferCount else {
                droppedRequestCount += 1
                continue
            }
            let produced = commandFaults.handle(SMPServer.commandNames(of: frame), at: time) { respond(to: frame, at: time) }
            if produced.contains(where: \.losesLinkAtOnce) { return produced }
            outputs += produced
        }
        return outputs
    }

    /// One request: the server's answer once the device is done with it.
    private func respond(to frame: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard let outcome = server.handle(frame: frame) else { return [] }
        busyUntil = max(busyUntil, time) + outcome.cost
        processingEnds.append(busyUntil)
        if outcome.armsReset { cycle.scheduleReset(at: busyUntil + server.settings.resetDelay) }
        return notifications(outcome.response, readyAt: busyUntil)
    }

    private func notifications(_ frame: [UInt8], readyAt: Duration) -> [PeripheralOutput] {
        Segmenter.segments(of: frame, maximumSize: mtu - 3).map { segment in
            PeripheralOutput(pdu: .notification(handle: Self.characteristicHandle, value: segment), readyAt: readyAt)
        }
    }
}

extension SMPServerDevice: CommandLogging {
    public var receivedCommands: [[String]] { commandFaults.log }
}
