import DFUWire

/// The virtual-clock line between the engine and one simulated wire device: bytes take their
/// line time each way, the device takes its processing time, and its timers fire in time order
/// wherever the clock moves (`advance(to:)`), as `SimulatedWorld` does for radio links.
///
/// What a reset does to the port follows the link: a UART or pseudo-terminal stays open (what
/// the device was sending is cut off; bytes sent while it reboots are lost); a USB CDC-ACM port
/// goes away (`portGeneration` moves on: wires opened before read `.closed`).
final class SimulatedWireLine {
    let link: SimulatedWireLink
    let device: any SimulatedWirePeripheral
    let faults: SimulatedWireFaults
    private(set) var now: Duration = .zero
    /// Moves on each time the device's USB port goes away.
    private(set) var portGeneration = 0
    /// Whether a host end is open: bytes that reach the host with none open are discarded.
    private(set) var hostIsOpen = false
    private(set) var statistics = SimulatedWireStatistics()

    private var toDevice: [WireTransfer] = []
    private var toHost: [WireTransfer] = []
    private var hostLineFreeAt: Duration = .zero
    private var deviceLineFreeAt: Duration = .zero
    private var arrivedBytes: [UInt8] = []
    private var arrivedDatagrams: [[UInt8]] = []
    private var sends = 0
    private var outputs = 0
    private var bytesNumberedToDevice = 0
    private var bytesNumberedToHost = 0
    private var bytesReadByHost = 0

    /// How much a host's serial driver takes before a write blocks: a Linux tty's 4 KiB.
    static let hostDriverBuffer = 4096

    init(link: SimulatedWireLink, device: any SimulatedWirePeripheral, faults: SimulatedWireFaults) {
        self.link = link
        self.device = device
        self.faults = faults
    }

    // MARK: - The clock

    /// Moves the clock to `target` (never back): bytes reach the device, its timers fire and
    /// its answers leave, in time order. A timer due when bytes arrive runs after them.
    func advance(to target: Duration) {
        while true {
            let delivery = toDevice.first.flatMap { $0.nextArrival == nil ? nil : $0.end }
            let timer = device.nextTimer
            guard let due = nextEventTime, due <= target else { break }
            if let timer, timer == due, delivery.map({ timer < $0 }) ?? true {
                deliver(arrivedBy: timer)
                now = max(now, timer)
                fireTimers(at: timer)
            } else {
                now = max(now, due)
                deliver(arrivedBy: due)
            }
        }
        now = max(now, target)
        collectArrivals()
    }

    /// When bytes next reach the device or its next timer is due; nil when neither will.
    var nextEventTime: Duration? {
        [toDevice.first.flatMap { $0.nextArrival == nil ? nil : $0.end }, device.nextTimer].compactMap { $0 }.min()
    }

    private func fireTimers(at time: Duration) {
        while let due = device.nextTimer, due <= time {
            for event in device.fireTimers(at: due) { handle(event) }
            precondition(device.nextTimer.map { $0 > due } ?? true,
                         "a simulated wire device's timer at \(due) did not move on when fired")
        }
    }

    private func handle(_ event: WireDeviceEvent) {
        switch event {
        case let .output(output): queueToHost(output)
        case .reset: deviceReset(at: now)
        }
    }

    // MARK: - To the device

    /// Queues the engine's bytes (a stream's next bytes, or one datagram); returns when the
    /// host's driver has taken them (the time its write returns).
    func send(_ bytes: [UInt8]) -> Duration {
        sends += 1
        if let garbage = faults.garbageToDevice[sends] { queueToDevice(garbage, numbered: false) }
        queueToDevice(bytes, numbered: true)
        statistics.bytesToDevice += bytes.count
        let backlog = link.byteTime * Self.hostDriverBuffer
        return max(now, hostLineFreeAt - backlog)
    }

    private func queueToDevice(_ bytes: [UInt8], numbered: Bool) {
        guard !bytes.isEmpty else { return }
        let datagram = link.kind == .datagram
        let start = datagram ? now : max(now, hostLineFreeAt)
        var transfer = WireTransfer(bytes: bytes, start: start, byteTime: link.byteTime, latency: link.latency,
                                    isDatagram: datagram)
        if numbered {
            transfer.firstByteNumber = bytesNumberedToDevice + 1
            for index in bytes.indices {
                let number = bytesNumberedToDevice + 1 + index
                if faults.lostBytesToDevice.contains(number) { transfer.lost.insert(index) }
                if faults.corruptedBytesToDevice.contains(number) { transfer.bytes[index] ^= 0xFF }
            }
            bytesNumberedToDevice += bytes.count
            if datagram, !transfer.lost.isEmpty || transfer.bytes != bytes {
                transfer.lost = Set(bytes.indices)  // UDP's checksum drops a damaged datagram whole
            }
        }
        if !datagram { hostLineFreeAt = start + link.byteTime * bytes.count }
        toDevice.append(transfer)
    }

    /// Hands the device what has arrived by `time`, in order; a power fault at a byte cuts the
    /// delivery there.
    private func deliver(arrivedBy time: Duration) {
        while var transfer = toDevice.first {
            let arrived = transfer.arrivedCount(by: time)
            guard arrived > transfer.handedOn else { return }
            var upTo = arrived
            var resetAfter = false
            if let first = transfer.firstByteNumber {
                let from = first + transfer.handedOn, to = first + arrived - 1
                if let number = faults.resetAtByteToDevice.filter({ $0 >= from && $0 <= to }).min() {
                    upTo = number - first + 1
                    resetAfter = true
                }
            }
            let range = transfer.handedOn..<upTo
            let at = transfer.arrival(ofByte: upTo - 1)
            let kept = transfer.kept(range)
            transfer.handedOn = upTo
            if transfer.handedOn == transfer.bytes.count { toDevice.removeFirst() } else { toDevice[0] = transfer }
            if device.isRunning, !kept.isEmpty, !(transfer.isDatagram && kept.count < transfer.bytes.count) {
                statistics.bytesHeardByDevice += kept.count
                for output in device.receive(kept, at: max(at, now)) { queueToHost(output) }
            } else {
                statistics.bytesLost += range.count
            }
            if resetAfter {
                device.powerCycle(at: max(at, now))
                deviceReset(at: max(at, now))
            }
        }
    }

    // MARK: - To the host

    private func queueToHost(_ output: WireDeviceOutput) {
        outputs += 1
        if let garbage = faults.garbageToHost[outputs] {
            queueToHost(WireDeviceOutput(bytes: garbage, readyAt: output.readyAt), numbered: false)
        }
        queueToHost(output, numbered: true)
    }

    private func queueToHost(_ output: WireDeviceOutput, numbered: Bool) {
        guard !output.bytes.isEmpty else { return }
        let datagram = link.kind == .datagram
        let start = datagram ? output.readyAt : max(output.readyAt, deviceLineFreeAt)
        var transfer = WireTransfer(bytes: output.bytes, start: start, byteTime: link.byteTime, latency: link.latency,
                                    isDatagram: datagram)
        if numbered {
            for index in output.bytes.indices {
                let number = bytesNumberedToHost + 1 + index
                if faults.lostBytesToHost.contains(number) { transfer.lost.insert(index) }
                if faults.corruptedBytesToHost.contains(number) { transfer.bytes[index] ^= 0xFF }
            }
            bytesNumberedToHost += output.bytes.count
            if datagram, !transfer.lost.isEmpty || transfer.bytes != output.bytes { transfer.lost = Set(output.bytes.indices) }
        }
        if !datagram { deviceLineFreeAt = start + link.byteTime * output.bytes.count }
        statistics.bytesToHost += output.bytes.count
        let position = toHost.lastIndex { $0.start <= transfer.start }.map { $0 + 1 } ?? 0
        toHost.insert(transfer, at: position)
    }

    /// Moves what reached the host by now into its read buffer (or drops it when no host end
    /// is open).
    private func collectArrivals() {
        // Transfers to the host arrive in the order they are queued (one line, or one latency).
        while var transfer = toHost.first, let next = transfer.nextArrival, next <= now {
            let arrived = transfer.arrivedCount(by: now)
            let kept = transfer.kept(transfer.handedOn..<arrived)
            transfer.handedOn = arrived
            if hostIsOpen {
                if transfer.isDatagram {
                    if kept.count == transfer.bytes.count { arrivedDatagrams.append(kept) }
                } else {
                    arrivedBytes += kept
                }
            }
            guard transfer.handedOn == transfer.bytes.count else {
                toHost[0] = transfer
                return
            }
            toHost.removeFirst()
        }
    }

    /// The device reset at `time`: it stops sending; a USB port goes away with everything in it.
    private func deviceReset(at time: Duration) {
        statistics.resets += 1
        toHost = toHost.compactMap { transfer in
            var transfer = transfer
            return transfer.truncate(after: time) ? transfer : nil
        }
        deviceLineFreeAt = time
        guard link.portGoesAwayOnReset else { return }
        portGeneration += 1
        hostIsOpen = false
        toDevice.removeAll()
        toHost.removeAll()
        arrivedBytes.removeAll()
        arrivedDatagrams.removeAll()
        hostLineFreeAt = time
    }

    // MARK: - The host end

    /// A host end opens: it reads from now on.
    func openHostEnd() {
        hostIsOpen = true
        arrivedBytes.removeAll()
        arrivedDatagrams.removeAll()
    }

    /// The host end closed: what arrives from now on is discarded.
    func closeHostEnd() {
        hostIsOpen = false
        arrivedBytes.removeAll()
        arrivedDatagrams.removeAll()
    }

    /// Whether something arrived for the host and was not read.
    var hasArrived: Bool { link.kind == .datagram ? !arrivedDatagrams.isEmpty : !arrivedBytes.isEmpty }

    /// When the host waits for the next read: the end of the burst the next byte to arrive
    /// belongs to (a reader wakes once a burst is in), or nil when nothing is on its way.
    var nextBurstEnd: Duration? {
        toHost.first { !$0.kept($0.handedOn..<$0.bytes.count).isEmpty }?.end
    }

    /// The next read: a datagram, or the stream bytes that arrived (cut at the fault plan's read
    /// boundaries); nil when nothing arrived.
    func takeRead() -> [UInt8]? {
        if link.kind == .datagram {
            return arrivedDatagrams.isEmpty ? nil : arrivedDatagrams.removeFirst()
        }
        guard !arrivedBytes.isEmpty else { return nil }
        var count = arrivedBytes.count
        if let perRead = faults.bytesPerRead { count = min(count, max(1, perRead)) }
        if let boundary = faults.readBoundaries.filter({ $0 > bytesReadByHost }).min() {
            count = min(count, boundary - bytesReadByHost)
        }
        let read = Array(arrivedBytes.prefix(count))
        arrivedBytes.removeFirst(count)
        bytesReadByHost += count
        return read
    }
}

/// What went over a simulated wire.
public struct SimulatedWireStatistics: Sendable, Equatable {
    /// Bytes the engine sent (line noise not included).
    public var bytesToDevice = 0
    /// Bytes that reached a running device.
    public var bytesHeardByDevice = 0
    /// Bytes lost on the way to the device: line faults, or sent while it rebooted.
    public var bytesLost = 0
    /// Bytes the device sent (line noise included).
    public var bytesToHost = 0
    /// Times the device reset.
    public var resets = 0
}
