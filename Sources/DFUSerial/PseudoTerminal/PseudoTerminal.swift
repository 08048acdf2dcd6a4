#if canImport(Glibc)
import Glibc
#endif
import DFUWire

/// A pseudo-terminal pair: the controller is the device end of a simulated serial device (this
/// wire), the subordinate (`/dev/pts/N`) is the port a client opens as it would a real one,
/// directly or through a stable symbolic link (`linkPath`). Both ends are raw: every byte goes
/// through as it is (0x00, CR, LF, ^C, XON/XOFF included).
///
/// Clients come and go; the device end stays. When the last client closes the subordinate, the
/// kernel hangs up the controller (reads fail with EIO, poll says POLLHUP at once). So the
/// device end keeps a subordinate descriptor of its own open, never read: the controller then
/// never sees a hang-up, its reads wait for the next client, and the terminal keeps its raw
/// settings between clients. What the device writes while no client is there waits in the
/// subordinate's input queue; a client that opens the port with `SerialPortWire` flushes it
/// (tcflush), as over a real port.
public final class PseudoTerminal: ByteWire {
    /// The subordinate's path: `/dev/pts/N`.
    public let subordinatePath: String
    /// The symbolic link to the subordinate made for clients, when one was asked for.
    public let linkPath: String?
    private let heldSubordinate: Int32
    private let pump: DescriptorPump
    /// Closed once; reads, writes and the close itself, as every descriptor-backed wire does them.
    private lazy var core = PumpedWireCore(pump: pump, clock: clock, name: pump.name)
    private let clock: WireClock
    private let writeTimeout: Duration
    private let syscalls: any WireSyscalls

    /// A new pseudo-terminal, with a symbolic link at `linkPath` to its subordinate when given
    /// (an existing link there is replaced: a previous run's). Writes fail after `writeTimeout`
    /// when no client reads.
    /// - Throws: `.unavailable` when no pseudo-terminal can be made, or the link cannot (a file
    ///   that is not a symbolic link is in the way, a directory that does not exist).
    public convenience init(linkPath: String? = nil, writeTimeout: Duration = .seconds(2),
                            clock: WireClock = WireClock()) throws(WireError) {
        try self.init(linkPath: linkPath, writeTimeout: writeTimeout, clock: clock, syscalls: SystemWireSyscalls())
    }

    /// A new pseudo-terminal made through `syscalls`.
    package init(linkPath: String?, writeTimeout: Duration, clock: WireClock, syscalls: any WireSyscalls) throws(WireError) {
        let (controller, subordinatePath) = try Self.openController(syscalls: syscalls)
        let held: Int32
        do {
            held = try Self.openHeldSubordinate(subordinatePath, syscalls: syscalls)
            if let linkPath { try Self.link(linkPath, to: subordinatePath, syscalls: syscalls) }
        } catch {
            syscalls.close(controller)
            throw error
        }
        self.subordinatePath = subordinatePath
        self.linkPath = linkPath
        self.heldSubordinate = held
        self.clock = clock
        self.writeTimeout = writeTimeout
        self.syscalls = syscalls
        do {
            pump = try DescriptorPump(descriptor: controller, style: .stream,
                                      name: "pseudo-terminal \(linkPath ?? subordinatePath)", readSize: 4096,
                                      reader: .client, syscalls: syscalls)
        } catch {
            syscalls.close(controller)
            syscalls.close(held)
            if let linkPath { _ = syscalls.unlink(linkPath) }
            throw error
        }
    }

    deinit {
        guard !core.closed else { return }
        pump.requestClose()
        releaseSubordinate()
    }

    /// What a client opens: the link when there is one, the subordinate otherwise.
    public var clientPath: String { linkPath ?? subordinatePath }

    /// `.stream`.
    public var kind: WireKind { .stream }

    /// `pseudo-terminal /dev/pts/3`, with the link.
    public var description: String {
        linkPath.map { "pseudo-terminal \($0) (\(subordinatePath))" } ?? "pseudo-terminal \(subordinatePath)"
    }

    /// The time since the clock's origin.
    public var now: Duration { clock.now }

    /// nil: a pseudo-terminal has no line rate.
    public var lineRate: Int? { nil }

    /// Writes `bytes` towards the client; fails after the write timeout when no client reads.
    public func send(_ bytes: [UInt8]) async throws(WireError) {
        try await core.send(bytes, timeout: writeTimeout)
    }

    /// What a client wrote, or nil once `deadline` passed. A client closing is not an end:
    /// this waits for the next one.
    public func receive(until deadline: Duration) async throws(WireError) -> [UInt8]? {
        try await core.receive(until: deadline)?.bytes
    }

    /// Sleeps on the wire's clock.
    public func sleep(until deadline: Duration) async {
        await clock.sleep(until: deadline)
    }

    /// Closes the controller and the held subordinate (clients then read end of file) and
    /// removes the link.
    public func close() async {
        guard await core.close() else { return }
        releaseSubordinate()
    }


    private func releaseSubordinate() {
        syscalls.close(heldSubordinate)
        // Only the link this terminal made: another run may have replaced it since.
        if let linkPath, case let .success(target) = syscalls.symbolicLinkTarget(linkPath), target == subordinatePath {
            _ = syscalls.unlink(linkPath)
        }
    }

    private static func openController(syscalls: any WireSyscalls) throws(WireError) -> (Int32, String) {
        let name = "pseudo-terminal"
        let controller: Int32
        switch syscalls.openPseudoTerminalController(flags: O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) {
        case let .success(descriptor): controller = descriptor
        case let .failure(error):
            throw WireError(.unavailable, wire: name,
                            detail: "cannot make one (posix_openpt: \(error)); is /dev/ptmx there, with devpts mounted on /dev/pts?")
        }
        func fail(_ call: String, _ error: Errno) -> WireError {
            syscalls.close(controller)
            return WireError(.unavailable, wire: name, detail: "cannot set it up (\(call): \(error))")
        }
        if case let .failure(error) = syscalls.grantPseudoTerminal(controller) { throw fail("grantpt", error) }
        if case let .failure(error) = syscalls.unlockPseudoTerminal(controller) { throw fail("unlockpt", error) }
        switch syscalls.pseudoTerminalSubordinatePath(controller) {
        case let .success(path): return (controller, path)
        case let .failure(error): throw fail("ptsname_r", error)
        }
    }

    /// Opens the subordinate the device end keeps, and makes the terminal raw.
    private static func openHeldSubordinate(_ path: String, syscalls: any WireSyscalls) throws(WireError) -> Int32 {
        let held: Int32
        switch syscalls.open(path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) {
        case let .success(descriptor): held = descriptor
        case let .failure(error):
            throw WireError(.unavailable, wire: path, detail: "cannot open the pseudo-terminal's subordinate (open: \(error))")
        }
        let raw: termios
        switch syscalls.terminalAttributes(held) {
        case let .success(attributes): raw = SerialPortSettings().applied(to: attributes)
        case let .failure(error):
            syscalls.close(held)
            throw WireError(.unavailable, wire: path, detail: "cannot read its settings (tcgetattr: \(error))")
        }
        if case let .failure(error) = syscalls.setTerminalAttributes(held, raw) {
            syscalls.close(held)
            throw WireError(.unavailable, wire: path, detail: "cannot make it raw (tcsetattr: \(error))")
        }
        return held
    }

    /// Makes `path` a symbolic link to `target`, replacing a link (never a file) already there.
    private static func link(_ path: String, to target: String, syscalls: any WireSyscalls) throws(WireError) {
        switch syscalls.symbolicLinkTarget(path) {
        case .success:
            if case let .failure(error) = syscalls.unlink(path) {
                throw WireError(.unavailable, wire: path, detail: "cannot replace the link there (unlink: \(error))")
            }
        case .failure(.noSuchFile):
            break
        case .failure(.invalidArgument):
            throw WireError(.unavailable, wire: path,
                            detail: "something that is not a symbolic link is there; remove it or choose another path")
        case let .failure(error):
            throw WireError(.unavailable, wire: path, detail: "cannot make the link (readlink: \(error))")
        }
        if case let .failure(error) = syscalls.createSymbolicLink(at: path, to: target) {
            let hint = error == .noSuchFile ? "; its directory does not exist" : ""
            throw WireError(.unavailable, wire: path, detail: "cannot make the link to \(target) (symlink: \(error))\(hint)")
        }
    }
}
