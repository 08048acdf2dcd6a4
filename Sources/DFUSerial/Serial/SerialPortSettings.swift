#if canImport(Glibc)
import Glibc
#endif

/// How a serial port is set up when it is opened: raw 8N1 (no echo, no line editing, no
/// translation of CR/LF, no XON/XOFF), the receiver on, modem lines ignored (CLOCAL), at a
/// standard baud rate, with or without RTS/CTS flow control.
public struct SerialPortSettings: Sendable, Hashable {
    /// The line speed. A USB CDC-ACM port ignores it (its rate is a label), but some devices
    /// read it as a signal (1200 baud: reset into the bootloader), so it is still set.
    public var baudRate: BaudRate
    /// RTS/CTS flow control.
    public var flowControl: SerialFlowControl
    /// How long a write may wait for a port that does not take bytes (a full driver buffer:
    /// the device does not read, or holds CTS off) before it fails.
    public var writeTimeout: Duration

    /// Settings at `baudRate` (115200 by default), without flow control.
    public init(baudRate: BaudRate = .b115200, flowControl: SerialFlowControl = .none,
                writeTimeout: Duration = .seconds(2)) {
        self.baudRate = baudRate
        self.flowControl = flowControl
        self.writeTimeout = writeTimeout
    }

    /// `attributes` changed to these settings: cfmakeraw(3), 8 data bits, no parity, one stop
    /// bit, CLOCAL | CREAD, CRTSCTS as `flowControl` says, the baud rate both ways, and reads
    /// that return what is there (VMIN 1, VTIME 0: the descriptor is polled anyway).
    package func applied(to attributes: termios) -> termios {
        var attributes = attributes
        cfmakeraw(&attributes)
        attributes.c_cflag &= ~(tcflag_t(CSIZE) | tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
        attributes.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        if flowControl == .hardware { attributes.c_cflag |= tcflag_t(CRTSCTS) }
        attributes.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        withUnsafeMutableBytes(of: &attributes.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        cfsetispeed(&attributes, baudRate.speed)
        cfsetospeed(&attributes, baudRate.speed)
        return attributes
    }
}

/// Whether the port holds back bytes while the other end says it cannot take them.
public enum SerialFlowControl: String, Sendable, Hashable {
    /// None: bytes go out whatever the other end says.
    case none
    /// RTS/CTS (CRTSCTS): the port sends while CTS is asserted, and asserts RTS while it can
    /// take bytes.
    case hardware
}
