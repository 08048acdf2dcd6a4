#if canImport(Glibc)
import Glibc
#endif
import DFUWire

/// A serial port as a wire: a UART, a USB CDC-ACM port or a pseudo-terminal's subordinate,
/// opened non-blocking (O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC), set up raw as
/// `SerialPortSettings` says, its buffers flushed.
///
/// A thread reads the port and queues what arrives; `receive(until:)` waits on the wire's
/// clock. A read that fails with EIO / ENXIO or ends (a USB CDC-ACM port that vanished because
/// its device reset, a pseudo-terminal whose device end closed) ends the wire with `.closed`
/// saying the port went away. A write that the port does not take within the settings'
/// `writeTimeout` fails saying the device does not read.
public final class SerialPortWire: ByteWire {
    /// The path opened: `/dev/ttyACM0`.
    public let path: String
    /// How the port was set up.
    public let settings: SerialPortSettings
    /// What is behind the port.
    public let lineKind: SerialLineKind
    private let clock: WireClock
    private let pump: DescriptorPump
    /// Closed once; reads, writes and the close itself, as every descriptor-backed wire does them.
    private lazy var core = PumpedWireCore(pump: pump, clock: clock, name: path)

    /// Opens the port at `path` with `settings`, on `clock`.
    /// - Throws: `.unavailable` when the port is not there, may not be opened, is not a
    ///   terminal, or does not take the settings; each says what to do.
    public convenience init(path: String, settings: SerialPortSettings = SerialPortSettings(),
                            clock: WireClock = WireClock()) throws(WireError) {
        try self.init(path: path, settings: settings, clock: clock, syscalls: SystemWireSyscalls())
    }

    /// Opens the port through `syscalls`.
    package init(path: String, settings: SerialPortSettings, clock: WireClock, syscalls: any WireSyscalls) throws(WireError) {
        let descriptor = try Self.openConfigured(path: path, settings: settings, syscalls: syscalls)
        let lineKind: SerialLineKind
        switch syscalls.deviceNumber(descriptor) {
        case let .success(number): lineKind = SerialLineKind(major: number.major)
        case .failure: lineKind = .uart
        }
        self.path = path
        self.settings = settings
        self.lineKind = lineKind
        self.clock = clock
        do {
            pump = try DescriptorPump(descriptor: descriptor, style: .stream, name: path, readSize: 4096, syscalls: syscalls)
        } catch {
            syscalls.close(descriptor)
            throw error
        }
    }

    deinit { pump.requestClose() }

    /// `.stream`.
    public var kind: WireKind { .stream }

    /// `/dev/ttyACM0 at 115200 baud`, and what the port is when it is not a UART.
    public var description: String {
        switch lineKind {
        case .uart: return "\(path) at \(settings.baudRate)"
        case .usbCDCACM: return "\(path) (USB CDC-ACM)"
        case .pseudoTerminal: return "\(path) (pseudo-terminal)"
        }
    }

    /// The time since the clock's origin.
    public var now: Duration { clock.now }

    /// Bytes per second at the baud rate with 8N1 framing (10 bits a byte) for a UART; nil for
    /// USB CDC-ACM and pseudo-terminals, which have no line.
    public var lineRate: Int? {
        lineKind == .uart ? settings.baudRate.bitsPerSecond / 10 : nil
    }

    /// Writes all of `bytes`, waiting up to the settings' `writeTimeout` for a port that does
    /// not take them.
    public func send(_ bytes: [UInt8]) async throws(WireError) {
        try await core.send(bytes, timeout: settings.writeTimeout)
    }

    /// What arrived (at least one byte), or nil once `deadline` passed with nothing.
    public func receive(until deadline: Duration) async throws(WireError) -> [UInt8]? {
        try await core.receive(until: deadline)?.bytes
    }

    /// Sleeps on the wire's clock.
    public func sleep(until deadline: Duration) async {
        await clock.sleep(until: deadline)
    }

    /// Stops the reader and closes the port (once).
    public func close() async {
        guard await core.close() else { return }
    }


    /// Opens and sets up the port; the descriptor, or why it cannot be used.
    private static func openConfigured(path: String, settings: SerialPortSettings,
                                       syscalls: any WireSyscalls) throws(WireError) -> Int32 {
        let descriptor: Int32
        switch syscalls.open(path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) {
        case let .success(opened): descriptor = opened
        case let .failure(error): throw WireError(.unavailable, wire: path, detail: openFailure(error, path: path))
        }
        func fail(_ detail: String) -> WireError {
            syscalls.close(descriptor)
            return WireError(.unavailable, wire: path, detail: detail)
        }
        let current: termios
        switch syscalls.terminalAttributes(descriptor) {
        case let .success(attributes): current = attributes
        case let .failure(error):
            throw fail("not a serial port (tcgetattr: \(error)); name a tty such as /dev/ttyACM0 or /dev/ttyUSB0")
        }
        let wanted = settings.applied(to: current)
        if case let .failure(error) = syscalls.setTerminalAttributes(descriptor, wanted) {
            throw fail("cannot set \(settings.baudRate), 8N1, raw (tcsetattr: \(error))")
        }
        // tcsetattr succeeds when any of the change was made: read back what the driver kept.
        if case var .success(kept) = syscalls.terminalAttributes(descriptor) {
            let keptSpeed = cfgetospeed(&kept)
            if keptSpeed != settings.baudRate.speed {
                let keptRate = BaudRate.bitsPerSecond(of: keptSpeed).map { "\($0) baud" } ?? "another rate"
                throw fail("the driver did not take \(settings.baudRate) (it kept \(keptRate)); choose a rate the adapter supports")
            }
            if settings.flowControl == .hardware, kept.c_cflag & tcflag_t(CRTSCTS) == 0 {
                throw fail("the driver refused RTS/CTS flow control; open it without flow control")
            }
        }
        if case let .failure(error) = syscalls.flushTerminal(descriptor) {
            throw fail("cannot flush the port's buffers (tcflush: \(error))")
        }
        return descriptor
    }

    /// What an open(2) failure means for a serial port, and what to do.
    static func openFailure(_ error: Errno, path: String) -> String {
        switch error {
        case .noSuchFile:
            return "no such port (\(error)); is the device plugged in?"
        case .permissionDenied, .operationNotPermitted:
            return "not permitted to open it (\(error)); add yourself to the port's group "
                + "(`sudo usermod -aG dialout $USER`, then log in again)"
        case .busy:
            return "the port is in use (\(error)); close the other program that holds it (`fuser \(path)` names it)"
        case .noSuchDeviceOrAddress, .noDevice, .ioError:
            return "the port is there but its device is not (\(error)); it is resetting or was unplugged: try again"
        default:
            return "cannot open it (open: \(error))"
        }
    }
}
