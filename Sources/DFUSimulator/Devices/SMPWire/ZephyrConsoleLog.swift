/// What a Zephyr application prints on a console that also carries SMP (the smp_svr sample's
/// `overlay-serial.conf`: `CONFIG_MCUMGR_TRANSPORT_UART` on the console's UART): the kernel's
/// boot banner, then log lines, between the SMP frames.
///
/// The banner is `printk`'s `*** Booting Zephyr OS build v3.7.0 ***` (kernel/banner.c); log
/// lines are the default log format, `[hh:mm:ss.mmm,uuu] <inf> module: message`
/// (subsys/logging/log_output.c, timestamp since boot). The console driver
/// (drivers/console/uart_console.c) writes `\r\n` for each newline. Lines are whole: the
/// simulated device never prints inside an SMP frame.
public struct ZephyrConsoleLog: Sendable, Equatable {
    /// The banner printed when the application starts; nil: none.
    public var banner: String? = "*** Booting Zephyr OS build v3.7.0 ***"
    /// Log messages (`<inf> module: message`) printed 10 ms after the start, one per millisecond.
    public var bootMessages: [String] = ["<inf> smp_sample: build time: Jan  1 2026 00:00:00"]
    /// A message printed periodically while the application runs (`<inf> app: alive`), every
    /// `heartbeatInterval`; nil: none.
    public var heartbeatInterval: Duration?
    /// The periodic message.
    public var heartbeatMessage = "<inf> app: alive"

    /// The banner and a build-time log line, no periodic message.
    public init() {}

    /// `[00:00:00.010,000]`: hours, minutes, seconds, milliseconds and microseconds of `uptime`.
    public static func timestamp(_ uptime: Duration) -> String {
        let microseconds = max(0, uptime.components.seconds * 1_000_000 + uptime.components.attoseconds / 1_000_000_000_000)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let hours = microseconds / 3_600_000_000, minutes = microseconds / 60_000_000 % 60
        let seconds = microseconds / 1_000_000 % 60, milliseconds = microseconds / 1000 % 1000
        return "[\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(milliseconds, 3)),\(pad(microseconds % 1000, 3))]"
    }

    /// A log line: `[timestamp] message\r\n`.
    public static func line(_ message: String, uptime: Duration) -> [UInt8] {
        Array("\(timestamp(uptime)) \(message)\r\n".utf8)
    }

    /// What the application prints as it starts at `time`: the banner at once, the boot
    /// messages from 10 ms.
    func bootOutputs(at time: Duration) -> [WireDeviceOutput] {
        var outputs: [WireDeviceOutput] = []
        if let banner { outputs.append(WireDeviceOutput(bytes: Array("\(banner)\r\n".utf8), readyAt: time)) }
        for (index, message) in bootMessages.enumerated() {
            let uptime = Duration.milliseconds(10 + index)
            outputs.append(WireDeviceOutput(bytes: Self.line(message, uptime: uptime), readyAt: time + uptime))
        }
        return outputs
    }
}

/// A device that handles one request at a time, with at most `capacity` requests waiting or in
/// hand (Zephyr's `CONFIG_MCUMGR_TRANSPORT_NETBUF_COUNT` buffers; MCUboot's one): further
/// requests are dropped unanswered.
struct RequestQueue: Sendable, Equatable {
    let capacity: Int
    /// When the request in hand is done.
    private(set) var busyUntil: Duration = .zero
    private var ends: [Duration] = []
    /// Requests dropped because the queue was full.
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// When a request arriving at `time` starts; nil when the queue is full and it is dropped.
    mutating func admit(at time: Duration) -> Duration? {
        ends.removeAll { $0 <= time }
        guard ends.count < capacity else {
            dropped += 1
            return nil
        }
        return max(busyUntil, time)
    }

    /// The request that started at `start` takes `cost`; returns when it is done.
    mutating func finish(startedAt start: Duration, cost: Duration) -> Duration {
        busyUntil = start + cost
        ends.append(busyUntil)
        return busyUntil
    }

    /// A reset at `time`: what was waiting is lost.
    mutating func reset(at time: Duration) {
        ends.removeAll()
        busyUntil = time
    }

    /// A clock moved by `offset`.
    mutating func shift(by offset: Duration) {
        busyUntil += offset
        ends = ends.map { $0 + offset }
    }
}
