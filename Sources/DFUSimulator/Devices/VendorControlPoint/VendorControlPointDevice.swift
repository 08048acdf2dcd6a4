import DFUBytes
import DFUGATT

/// The device side of the vendor control-point protocol (profiles/vendor-ctrlpt.yaml,
/// `sim:vendor-ctrlpt`): one characteristic; commands arrive as u16-LE-length-prefixed frames
/// cut into writes, responses leave as frames cut into notifications. It really stores the
/// image, checks size, CRC32 and SHA-256, and refuses commands out of order
/// (`VendorControlPointFirmware`).
///
/// Our own reference design, so its timing is ours to choose (`VendorControlPointDevice.Timing`):
/// `activate` is answered, the device reboots `resetDelay` (100 ms) after handling it, long
/// enough for the answer to leave at connection intervals up to about 50 ms, drops its link,
/// is silent for `boot` (500 ms) and advertises again running the new image. A power glitch
/// reboots it the same way at once; the session and the image to boot are in flash.
package final class VendorControlPointDevice: SimulatedPeripheral {
    /// When the device reboots after `activate`, and how long it then takes to advertise
    /// (`sim:` keys `reset-delay-ms`, `boot-ms`).
    package struct Timing: Sendable, Equatable {
        package var resetDelay: Duration
        package var boot: Duration

        package init(resetDelay: Duration = .milliseconds(100), boot: Duration = .milliseconds(500)) {
            self.resetDelay = resetDelay
            self.boot = boot
        }
    }

    /// An image in the device's flash.
    package struct InstalledImage: Sendable, Equatable {
        package var data: [UInt8]
        package var sha256: [UInt8]
    }

    package static let serviceUUID = BluetoothUUID(string: "D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
    package static let controlPointUUID = BluetoothUUID(string: "D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
    package static let frameFormat = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little,
                                                       maximumPayloadLength: 8192)
    static let controlPointHandle: UInt16 = 3
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's.
    package static let commandNames = VendorControlPointOpcode.allCases.map(\.name)
    static let maximumChunk = VendorControlPointFirmware.maximumChunk

    package let advertisement: Advertisement
    package let timing: Timing
    var firmware: VendorControlPointFirmware
    private var reassembler = Reassembler(format: VendorControlPointDevice.frameFormat)
    private var mtu = 23
    private var busyUntil: Duration = .zero
    private(set) var cycle = PowerCycle()
    private var commandFaults: CommandDisconnectInjector
    package private(set) var rebootCount = 0

    package init(address: DeviceAddress, name: String = "DFU-SIM", slotSize: Int = 1 << 20,
                flash: FlashTiming = FlashTiming(), busyCommands: Set<Int> = [], timing: Timing = Timing(),
                commandDisconnects: [CommandDisconnect] = []) {
        self.advertisement = Advertisement(address: address, name: name,
                                           serviceUUIDs: [Self.serviceUUID], rssi: -40)
        self.firmware = VendorControlPointFirmware(slotSize: slotSize, flash: flash, busyCommands: busyCommands)
        self.timing = timing
        self.commandFaults = CommandDisconnectInjector(commandDisconnects)
    }

    package var services: [GATTService] {
        [GATTService(uuid: Self.serviceUUID, characteristics: [
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.controlPointUUID,
                               valueHandle: Self.controlPointHandle, properties: [.write, .notify]),
        ])]
    }

    // MARK: - State, for tests

    package var slotSize: Int { firmware.slotSize }
    package var flash: FlashTiming { firmware.flash }
    /// Bytes of the image received so far in the current session.
    package var receivedByteCount: Int { firmware.session?.received.count ?? 0 }
    /// The image last activated; the device runs it once the reboot after `activate` is over.
    package var installed: InstalledImage? { firmware.activated.map(Self.installedImage) }
    /// The image the device runs (`info` reports it); nil for the factory image.
    package var runningImage: InstalledImage? { firmware.running.map(Self.installedImage) }
    /// Every command opcode processed, in order.
    package var commandLog: [UInt8] { firmware.commandLog }
    /// `activate` was answered and the reboot has not come yet.
    package var isResetPending: Bool { cycle.isResetDue }

    /// For the journal (`journal=`): the activated image's hash.
    package var activatedImageSHA256: [UInt8]? { firmware.activated?.sha256 }

    private static func installedImage(_ image: VendorControlPointFirmware.Image) -> InstalledImage {
        InstalledImage(data: image.data, sha256: image.sha256)
    }

    // MARK: - SimulatedPeripheral

    public func connectionStarted(mtu: Int, at time: Duration) {
        self.mtu = mtu
        reassembler.reset()
    }

    public func connectionEnded(at time: Duration) {
        // A half-received frame is lost; the upload session (in flash) survives.
        reassembler.reset()
    }

    public func readValue(handle: UInt16) -> [UInt8]? { nil }

    public func isAdvertising(at time: Duration) -> Bool { cycle.isAdvertising }
    public var nextTimer: Duration? { cycle.deadline }

    public func fireTimers(at time: Duration) -> [PeripheralEvent] {
        guard cycle.due(at: time) == .reset else { return [] }
        reboot(at: time)
        return [.reset(reason: "the device rebooted (\(timing.resetDelay) after activate)")]
    }

    public func powerCycle(at time: Duration) {
        reboot(at: time)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        busyUntil += offset
    }

    private func reboot(at time: Duration) {
        rebootCount += 1
        reassembler.reset()
        busyUntil = time
        firmware.reboot()
        cycle.rebooted(at: time, silentFor: timing.boot)
    }

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard handle == Self.controlPointHandle, !cycle.isBooting else { return [] }
        let frames: [[UInt8]]
        do {
            frames = try reassembler.append(value)
        } catch {
            return []  // an impossible length: the device drops the garbage and waits
        }
        var outputs: [PeripheralOutput] = []
        for frame in frames {
            let payload = Self.frameFormat.payload(ofFrame: frame)
            let names = payload.first.flatMap(VendorControlPointOpcode.init(rawValue:)).map { [$0.name] } ?? []
            let produced = commandFaults.handle(names, at: time) { process(payload, at: time) }
            if produced.contains(where: \.losesLinkAtOnce) { return produced }
            outputs += produced
        }
        return outputs
    }

    /// One command: the answer once the device is done with it.
    private func process(_ payload: [UInt8], at time: Duration) -> [PeripheralOutput] {
        let reply = firmware.process(payload)
        busyUntil = max(busyUntil, time) + reply.cost
        if reply.activates { cycle.scheduleReset(at: busyUntil + timing.resetDelay) }
        return notifications(for: reply.payload, readyAt: busyUntil)
    }

    private func notifications(for response: [UInt8], readyAt: Duration) -> [PeripheralOutput] {
        guard let frame = try? Self.frameFormat.frame(payload: response) else { return [] }
        return Segmenter.segments(of: frame, maximumSize: mtu - 3).map { segment in
            PeripheralOutput(pdu: .notification(handle: Self.controlPointHandle, value: segment), readyAt: readyAt)
        }
    }
}

extension VendorControlPointDevice: CommandLogging {
    package var receivedCommands: [[String]] { commandFaults.log }
}

extension VendorControlPointDevice: JournalledFirmware {}
