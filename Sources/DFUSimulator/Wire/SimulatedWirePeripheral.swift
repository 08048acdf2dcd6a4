import DFUWire

/// The device end of a simulated serial or UDP wire: bytes in, bytes out, on a virtual clock.
///
/// A device end is the firmware's transport (a UART console driver, SLIP, a UDP socket) in
/// front of the device's protocol logic (the SMP server, MCUboot's serial recovery, the Secure
/// DFU request handler). It is told what arrived and when; it answers with bytes and the time
/// they are ready to leave (after its processing and flash time). The line (`SimulatedWireLine`
/// for the engine, `SimulatedWireServer` on a real port) adds the time bytes take on the wire.
///
/// Time: like `SimulatedPeripheral`, a device has timers of its own (a reset 250 ms after its
/// answer, the end of a boot, a periodic log line); the line runs them in time order
/// (`nextTimer`, `fireTimers(at:)`). While it reboots (`isRunning` false) the device hears
/// nothing: bytes that arrive then are lost, and a USB port is gone.
public protocol SimulatedWirePeripheral: AnyObject {
    /// What the device is, for messages: `Zephyr SMP (console)`.
    var name: String { get }
    /// Whether it speaks over a byte stream (serial) or datagrams (UDP).
    var wireKind: WireKind { get }
    /// False while the device reboots: it hears nothing and its USB port is gone.
    var isRunning: Bool { get }

    /// Bytes arrived at `time`: the next bytes of a stream, in order, or one whole datagram.
    /// Returns what the device sends back and when each is ready to leave.
    func receive(_ bytes: [UInt8], at time: Duration) -> [WireDeviceOutput]
    /// When the device's earliest timer is due; nil when none is pending.
    var nextTimer: Duration? { get }
    /// Runs the timers due at `time` (the line calls this when its clock reaches `nextTimer`).
    func fireTimers(at time: Duration) -> [WireDeviceEvent]
    /// The device loses power at `time` (a fault): RAM is lost, flash is kept, it boots again.
    func powerCycle(at time: Duration)
    /// A clock whose origin lies elsewhere adopts the device (a wall-clock server starting at
    /// its wire's `now`): every time the device holds moves by `offset`.
    func shiftClock(by offset: Duration)
}

/// Bytes a device sends: one chunk of a stream, or one datagram.
public struct WireDeviceOutput: Sendable, Equatable {
    /// The bytes (for a datagram wire: the whole datagram).
    public var bytes: [UInt8]
    /// When the device starts sending them (its processing done).
    public var readyAt: Duration

    /// `bytes`, ready to leave at `readyAt`.
    public init(bytes: [UInt8], readyAt: Duration) {
        self.bytes = bytes
        self.readyAt = readyAt
    }
}

/// What a device's timer did.
public enum WireDeviceEvent: Sendable, Equatable {
    /// It sends bytes: a boot banner, a log line, a delayed answer.
    case output(WireDeviceOutput)
    /// It reset: what it was sending is cut off, and it hears nothing until it has booted.
    case reset(reason: String)
}
