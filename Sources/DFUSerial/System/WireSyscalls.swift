#if canImport(Glibc)
import Glibc
#endif

/// Every syscall (and libc call) the serial, pseudo-terminal and UDP wires make, behind one seam
/// so tests can record and fake them (swift-system's Mocking style, as `BlueZSyscalls` does).
/// `SystemWireSyscalls` calls the kernel; the test target wraps it to inject failures (a USB
/// port that disappears, a port that cannot be opened).
///
/// One thin typed wrapper per call: each returns its result or the `errno` it failed with, and
/// none retries on EINTR (the callers do).
package protocol WireSyscalls: Sendable {
    // MARK: Descriptors

    /// open(2).
    func open(_ path: String, flags: Int32) -> Result<Int32, Errno>
    /// close(2).
    func close(_ descriptor: Int32)
    /// read(2): at most `maximumLength` bytes; empty at end of file (a hung-up terminal).
    func read(_ descriptor: Int32, maximumLength: Int) -> Result<[UInt8], Errno>
    /// write(2): the number of bytes written.
    func write(_ descriptor: Int32, bytes: ArraySlice<UInt8>) -> Result<Int, Errno>
    /// poll(2): the `revents` of each request, in order. A negative timeout waits forever.
    func poll(_ requests: [PollRequest], timeoutMilliseconds: Int32) -> Result<[PollEvents], Errno>
    /// pipe2(2) with O_CLOEXEC | O_NONBLOCK: wakes a thread blocked in poll.
    func pipe() -> Result<(read: Int32, write: Int32), Errno>
    /// fstat(2): the device number of a character device.
    func deviceNumber(_ descriptor: Int32) -> Result<DeviceNumber, Errno>

    // MARK: Terminals

    /// tcgetattr(3).
    func terminalAttributes(_ descriptor: Int32) -> Result<termios, Errno>
    /// tcsetattr(3) with TCSANOW.
    func setTerminalAttributes(_ descriptor: Int32, _ attributes: termios) -> Result<Void, Errno>
    /// tcflush(3) with TCIOFLUSH: drops what was received and not read, and what was written
    /// and not sent.
    func flushTerminal(_ descriptor: Int32) -> Result<Void, Errno>
    /// posix_openpt(3): a new pseudo-terminal's controller.
    func openPseudoTerminalController(flags: Int32) -> Result<Int32, Errno>
    /// grantpt(3).
    func grantPseudoTerminal(_ controller: Int32) -> Result<Void, Errno>
    /// unlockpt(3).
    func unlockPseudoTerminal(_ controller: Int32) -> Result<Void, Errno>
    /// ptsname_r(3): the path of the subordinate, `/dev/pts/N`.
    func pseudoTerminalSubordinatePath(_ controller: Int32) -> Result<String, Errno>

    // MARK: Paths

    /// symlink(2): makes `path` a symbolic link to `target`.
    func createSymbolicLink(at path: String, to target: String) -> Result<Void, Errno>
    /// readlink(2): what the symbolic link at `path` points to.
    func symbolicLinkTarget(_ path: String) -> Result<String, Errno>
    /// unlink(2).
    func unlink(_ path: String) -> Result<Void, Errno>

    // MARK: Sockets

    /// getaddrinfo(3) for datagram sockets: the addresses of `host` (nil with `passive`: every
    /// local address), or getaddrinfo's own message.
    func resolve(host: String?, port: UInt16, passive: Bool) -> Result<[SocketAddress], ResolutionFailure>
    /// socket(2) (SOCK_CLOEXEC and SOCK_NONBLOCK added by the callers).
    func socket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, Errno>
    /// connect(2).
    func connect(_ socket: Int32, to address: SocketAddress) -> Result<Void, Errno>
    /// bind(2).
    func bind(_ socket: Int32, to address: SocketAddress) -> Result<Void, Errno>
    /// getsockname(2).
    func localAddress(_ socket: Int32) -> Result<SocketAddress, Errno>
    /// send(2) with MSG_NOSIGNAL on a connected socket: the number of bytes sent.
    func send(_ socket: Int32, bytes: ArraySlice<UInt8>) -> Result<Int, Errno>
    /// sendto(2) with MSG_NOSIGNAL: the number of bytes sent.
    func send(_ socket: Int32, bytes: ArraySlice<UInt8>, to address: SocketAddress) -> Result<Int, Errno>
    /// recv(2): one datagram of at most `maximumLength` bytes.
    func receive(_ socket: Int32, maximumLength: Int) -> Result<[UInt8], Errno>
    /// recvfrom(2): one datagram of at most `maximumLength` bytes, and who sent it.
    func receiveFrom(_ socket: Int32, maximumLength: Int) -> Result<(bytes: [UInt8], sender: SocketAddress), Errno>
}

/// One descriptor poll(2) watches, and for what.
package struct PollRequest: Sendable, Hashable {
    /// The descriptor.
    package var descriptor: Int32
    /// What to watch for.
    package var events: PollEvents

    /// Watches `descriptor` for `events`.
    package init(_ descriptor: Int32, for events: PollEvents) {
        self.descriptor = descriptor
        self.events = events
    }
}

/// poll(2)'s event bits.
package struct PollEvents: OptionSet, Sendable, Hashable {
    package let rawValue: Int16
    package init(rawValue: Int16) { self.rawValue = rawValue }

    /// POLLIN: there is something to read.
    package static let input = PollEvents(rawValue: Int16(POLLIN))
    /// POLLOUT: a write would not block.
    package static let output = PollEvents(rawValue: Int16(POLLOUT))
    /// POLLERR: an error is pending (a socket's ICMP error).
    package static let error = PollEvents(rawValue: Int16(POLLERR))
    /// POLLHUP: the other end hung up (a terminal whose device went away).
    package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// POLLNVAL: the descriptor is not open.
    package static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// A character device's major and minor numbers (`ls -l /dev/ttyACM0`: 166, 0).
package struct DeviceNumber: Sendable, Hashable {
    /// The driver's number.
    package var major: UInt32
    /// The device's number within the driver.
    package var minor: UInt32

    /// The numbers.
    package init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }
}

/// A getaddrinfo(3) failure: its code and gai_strerror's message.
package struct ResolutionFailure: Error, Sendable, Hashable {
    /// The EAI_ code.
    package var code: Int32
    /// gai_strerror(3): "Name or service not known".
    package var message: String

    /// A failure with `code`.
    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }
}
