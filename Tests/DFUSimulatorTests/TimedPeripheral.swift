import DFUBytes
import DFUGATT
import DFUSimulator

/// A device with timers of its own, for the world's time model: it reboots at `resetAt`
/// (dropping its link, reason "the device rebooted (test)"), is silent for `bootTime`, then
/// advertises again. Each write is answered with one notification echoing it. It records
/// what the world told it.
final class TimedPeripheral: SimulatedPeripheral {
    static let characteristic = ScriptedPeripheral.characteristic

    var resetAt: Duration?
    var bootTime: Duration
    /// Silent (booting) until then.
    var silentUntil: Duration?
    private(set) var resets: [Duration] = []
    private(set) var powerCycles: [Duration] = []
    private(set) var started: [Duration] = []
    private(set) var ended: [Duration] = []
    private(set) var writes: [(time: Duration, value: [UInt8])] = []
    /// The write (by its first byte) the device answers with a link loss, as a command fault does.
    var loseLinkOnWrite: UInt8?

    let advertisement: Advertisement
    var services: [GATTService] {
        [GATTService(uuid: ScriptedPeripheral.service, characteristics: [Self.characteristic])]
    }

    init(address: String = "C0:00:00:00:00:02", resetAt: Duration? = nil, bootTime: Duration = .milliseconds(500),
         silentUntil: Duration? = nil) {
        advertisement = Advertisement(address: DeviceAddress(string: address)!, name: "TIMED",
                                      serviceUUIDs: [ScriptedPeripheral.service], rssi: -50)
        self.resetAt = resetAt
        self.bootTime = bootTime
        self.silentUntil = silentUntil
    }

    func connectionStarted(mtu: Int, at time: Duration) { started.append(time) }
    func connectionEnded(at time: Duration) { ended.append(time) }
    func readValue(handle: UInt16) -> [UInt8]? { [0x01] }

    func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        writes.append((time, value))
        if let loseLinkOnWrite, value.first == loseLinkOnWrite {
            return [.linkLoss(reason: "test: link lost on \(loseLinkOnWrite)", at: time)]
        }
        return [PeripheralOutput(pdu: .notification(handle: 3, value: value), readyAt: time)]
    }

    func isAdvertising(at time: Duration) -> Bool { silentUntil == nil }

    var nextTimer: Duration? { [resetAt, silentUntil].compactMap { $0 }.min() }

    func fireTimers(at time: Duration) -> [PeripheralEvent] {
        if let until = silentUntil, until <= time { silentUntil = nil }
        guard let due = resetAt, due <= time else { return [] }
        resetAt = nil
        resets.append(time)
        silentUntil = time + bootTime
        return [.reset(reason: "the device rebooted (test)")]
    }

    func powerCycle(at time: Duration) {
        powerCycles.append(time)
        silentUntil = time + bootTime
    }

    func shiftClock(by offset: Duration) {
        resetAt = resetAt.map { $0 + offset }
        silentUntil = silentUntil.map { $0 + offset }
    }
}
