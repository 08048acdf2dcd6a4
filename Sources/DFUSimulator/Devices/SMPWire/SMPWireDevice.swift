import DFUWire

/// A Zephyr application booted by MCUboot whose SMP server is reached over a serial line or UDP
/// (`sim:mcumgr-smp?link=uart`, `link=usb`, `link=udp`): the same `SMPServer` as over Bluetooth
/// (`SMPServerDevice`), behind Zephyr's serial or UDP transport (`SMPWireTransport`).
///
/// - Requests are decoded as the transport does (console lines, raw headers, datagrams) and
///   handled one at a time, each after the one before it (`requestOverhead` plus flash time);
///   at most `bufferCount` wait or are in hand (`CONFIG_MCUMGR_TRANSPORT_NETBUF_COUNT`), further
///   ones are dropped. A request longer than a net_buf (`bufferSize`,
///   `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE`: 384 over serial, 2048 over UDP) is dropped by the
///   transport, unanswered.
/// - Answers go out framed as Zephyr frames them: console frames cut as `mcumgr_serial_tx_pkt`
///   does (`ZephyrSerialFrameWriter`), raw messages as they are, one datagram each.
/// - Reset as over BLE: `reset` is answered, the application runs on for `resetDelay` (250 ms),
///   then the device reboots; MCUboot swaps what is marked (silent meanwhile) and the
///   application starts again, printing its banner and log lines when `consoleLog` is set.
public final class SMPWireDevice: SimulatedWirePeripheral {
    /// The SMP server: the protocol logic and the slots.
    public internal(set) var server: SMPServer
    /// How the server is reached.
    public let transport: SMPWireTransport
    /// What the application prints between frames (console transport only); nil: nothing.
    public let consoleLog: ZephyrConsoleLog?
    private let lineLength: Int
    private var receiver: SMPDeviceReceiver
    private var queue: RequestQueue
    private var cycle = PowerCycle()
    /// When the application last started (log timestamps count from there).
    private var startedAt: Duration = .zero
    private var heartbeatDue: Duration?
    private var idleDeadline: Duration?
    /// Requests handled, and what MCUboot did at the last boot.
    package private(set) var rebootCount = 0
    package private(set) var lastBoot = MCUbootSlots.BootAction.none

    /// A device whose server has `settings` (its `bufferSize` and `bufferCount` are the
    /// transport's net_bufs) and runs `factoryImage`, reached over `transport` with console
    /// lines of `lineLength` bytes.
    public init(transport: SMPWireTransport, settings: SMPServerSettings, lineLength: Int = 128,
                consoleLog: ZephyrConsoleLog? = nil, factoryImage: SMPSlotImage = SMPServerDevice.factoryImage) {
        self.transport = transport
        self.server = SMPServer(settings: settings, factoryImage: factoryImage)
        self.lineLength = lineLength
        self.consoleLog = transport == .console ? consoleLog : nil
        self.receiver = .zephyr(transport, lineLength: lineLength, bufferSize: settings.bufferSize)
        self.queue = RequestQueue(capacity: settings.bufferCount)
        self.heartbeatDue = self.consoleLog?.heartbeatInterval
    }

    /// `Zephyr SMP (console)`.
    public var name: String { "Zephyr SMP (\(transport.name))" }
    /// Datagrams over UDP, a stream otherwise.
    public var wireKind: WireKind {
        if case .udp = transport { return .datagram }
        return .stream
    }
    /// False while it reboots.
    public var isRunning: Bool { !cycle.isBooting }
    /// The image slots as they are now.
    public var slots: MCUbootSlots { server.slots }
    /// Requests dropped because `bufferCount` were waiting.
    package var droppedRequestCount: Int { queue.dropped }
    /// Frames or packets the transport dropped.
    package var transportDiscards: Int { receiver.discards }

    // MARK: - Requests

    public func receive(_ bytes: [UInt8], at time: Duration) -> [WireDeviceOutput] {
        guard isRunning else { return [] }
        if case let .raw(timeout?) = transport { idleDeadline = time + timeout }
        return receiver.packets(from: bytes).flatMap { respond(to: $0, at: time) }
    }

    private func respond(to packet: [UInt8], at time: Duration) -> [WireDeviceOutput] {
        guard let start = queue.admit(at: time), let outcome = server.handle(frame: packet) else { return [] }
        let done = queue.finish(startedAt: start, cost: outcome.cost)
        if outcome.armsReset { cycle.scheduleReset(at: done + server.settings.resetDelay) }
        return [WireDeviceOutput(bytes: frame(outcome.response), readyAt: done)]
    }

    /// The bytes that carry a response on this transport.
    private func frame(_ response: [UInt8]) -> [UInt8] {
        transport == .console ? ZephyrSerialFrameWriter.wireBytes(for: response) : response
    }

    // MARK: - Time

    public var nextTimer: Duration? {
        [cycle.deadline, isRunning ? heartbeatDue : nil, idleDeadline].compactMap { $0 }.min()
    }

    public func fireTimers(at time: Duration) -> [WireDeviceEvent] {
        var events: [WireDeviceEvent] = []
        if let deadline = idleDeadline, deadline <= time {
            idleDeadline = nil
            receiver.lineWentIdle()
        }
        switch cycle.due(at: time) {
        case .reset?:
            reboot(at: time)
            return events + [.reset(reason: "the device rebooted (its reset came due \(server.settings.resetDelay) after the request)")]
        case .booted?:
            startedAt = time
            heartbeatDue = consoleLog?.heartbeatInterval.map { time + $0 }
            events += (consoleLog?.bootOutputs(at: time) ?? []).map(WireDeviceEvent.output)
        case nil:
            break
        }
        if isRunning, let due = heartbeatDue, due <= time, let log = consoleLog, let interval = log.heartbeatInterval {
            heartbeatDue = due + interval
            let line = ZephyrConsoleLog.line(log.heartbeatMessage, uptime: due - startedAt)
            events.append(.output(WireDeviceOutput(bytes: line, readyAt: max(due, queue.busyUntil))))
        }
        return events
    }

    public func powerCycle(at time: Duration) {
        reboot(at: time)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        queue.shift(by: offset)
        startedAt += offset
        heartbeatDue = heartbeatDue.map { $0 + offset }
        idleDeadline = idleDeadline.map { $0 + offset }
    }

    /// RAM is lost, MCUboot swaps what is marked, the application starts.
    private func reboot(at time: Duration) {
        rebootCount += 1
        receiver.reset()
        queue.reset(at: time)
        idleDeadline = nil
        heartbeatDue = nil
        lastBoot = server.reboot()
        cycle.rebooted(at: time, silentFor: server.settings.silence(after: lastBoot))
    }
}
