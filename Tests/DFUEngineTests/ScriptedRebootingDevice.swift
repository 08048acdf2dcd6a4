import DFUBytes
import DFUGATT

/// A device written as a script, on a virtual clock, for testing how the engine reconnects after
/// a reboot, independently of the simulators. One characteristic (handle 3): `01` asks its state
/// (answers `81 <booted image>`), `02` resets it (answers `82 00`, or nothing when `answersReset`
/// is false; then runs for `resetDelay` still answering and accepting connections, then reboots:
/// drops the link, stays silent for `bootTime`, and comes back with `booted` incremented).
/// Every event lands in `log` with its time, so tests can check what the engine did when.
final class ScriptedRebootingDevice: GATTTransport {
    let name = "scripted"
    let address = DeviceAddress(string: "C0:FF:EE:00:00:09")!
    var now: Duration = .zero
    var resetDelay: Duration = .milliseconds(250)
    var bootTime: Duration = .seconds(3)
    /// The device drops the link this long after the reset (nil: `resetDelay`), e.g. never.
    var answersReset = true
    private(set) var booted = 1
    private(set) var log: [(time: Duration, event: String)] = []
    /// When the device reboots (a reset pending), and when it advertises again.
    private var rebootAt: Duration?
    private var silentUntil: Duration = .zero
    fileprivate var link: ScriptedLink?

    static let service = BluetoothUUID(uuid16: 0xFEED)
    static let characteristic = GATTCharacteristic(service: service, uuid: BluetoothUUID(uuid16: 0xBEEF), valueHandle: 3,
                                                   properties: [.write, .notify])

    func note(_ event: String) { log.append((now, event)) }

    /// The device reboots by itself `delay` from now (a watchdog, a power glitch).
    func rebootsOnItsOwn(after delay: Duration) { rebootAt = now + delay }

    /// Runs the device's own timer up to `time`.
    fileprivate func advance(to time: Duration) {
        if let rebootAt, rebootAt <= time {
            now = max(now, rebootAt)
            self.rebootAt = nil
            booted += 1
            silentUntil = now + bootTime
            note("reboot")
            link?.dropped = true
            link = nil
        }
        now = max(now, time)
    }

    fileprivate var nextTimer: Duration? { rebootAt }

    var isAdvertising: Bool { now >= silentUntil && link == nil }

    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] { [] }

    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        let deadline = now + timeout
        advance(to: now)
        let start = max(now, silentUntil)
        guard start <= deadline else {
            advance(to: deadline)
            return nil
        }
        advance(to: start)
        note("advertising seen")
        return Advertisement(address: address, name: "scripted", serviceUUIDs: [Self.service], rssi: -40)
    }

    func sleep(until deadline: Duration) async { advance(to: deadline) }

    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        advance(to: max(now, silentUntil))
        note(rebootAt == nil ? "connected" : "connected before the reboot")
        let link = ScriptedLink(device: self)
        self.link = link
        return link
    }

    /// A request arrived: the answers it produces, with the time they go out.
    fileprivate func receive(_ value: [UInt8]) -> [[UInt8]] {
        switch value.first {
        case 0x01:
            note(rebootAt == nil ? "state asked" : "state asked before the reboot")
            return [[0x81, UInt8(booted)]]
        case 0x02:
            note("reset")
            rebootAt = now + resetDelay
            return answersReset ? [[0x82, 0x00]] : []
        default:
            return []
        }
    }
}

final class ScriptedLink: GATTLink {
    private let device: ScriptedRebootingDevice
    fileprivate var dropped = false
    private var inbox: [[UInt8]] = []

    fileprivate init(device: ScriptedRebootingDevice) { self.device = device }

    var address: DeviceAddress { device.address }
    var mtu: Int { 247 }
    var now: Duration { device.now }

    private func requireUp() throws(GATTError) {
        if dropped { throw GATTError(.disconnected, address: address.description, detail: "the device rebooted") }
    }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        try requireUp()
        return [GATTService(uuid: ScriptedRebootingDevice.service, characteristics: [ScriptedRebootingDevice.characteristic])]
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] { [] }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        device.advance(to: device.now + .milliseconds(15))
        try requireUp()
        inbox += device.receive(value)
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) { try requireUp() }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        try requireUp()
        if !inbox.isEmpty {
            device.advance(to: device.now + .milliseconds(15))
            try requireUp()
            return GATTNotification(valueHandle: 3, value: inbox.removeFirst(), receivedAt: device.now)
        }
        if let timer = device.nextTimer, timer <= deadline {
            device.advance(to: timer)
            try requireUp()
        }
        device.advance(to: deadline)
        return nil
    }

    func sleep(until deadline: Duration) async throws(GATTError) { device.advance(to: deadline) }

    func disconnect() async {
        guard !dropped else { return }
        dropped = true
        device.note("central disconnected")
        device.link = nil
    }
}

extension ScriptedRebootingDevice {
    /// The profile these tests flash the scripted device with, up to its procedure: `state`
    /// (the number of boots) and `reset` (reboots it); `procedure` is appended as written.
    static func profileText(procedure: String) -> String {
        """
        profile: rebooting
        reboot: { grace: 2s, boot-timeout: 10s }
        resume: { attempts: 2, reconnect-timeout: 5s }
        characteristics:
          control: { service: FEED, uuid: BEEF, properties: [write, notify] }
        commands:
          state:
            characteristic: control
            request: [{ type: u8, value: 0x01 }]
            response:
              fields: [{ type: u8, value: 0x81 }, { name: booted, type: u8 }]
          reset:
            characteristic: control
            reboots: true
            request: [{ type: u8, value: 0x02 }]
            response:
              fields: [{ type: u8, value: 0x82 }, { name: status, type: u8 }]

        """ + procedure
    }
}
