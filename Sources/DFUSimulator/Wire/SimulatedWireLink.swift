import DFUWire

/// The line between the engine and a simulated serial or UDP device, and what it costs in time.
///
/// - `serial(baud:usb:lineLength:)` with `usb: false`: a UART. Each byte takes 10 bits (start, 8
///   data, stop) at `baud`, both ways. The port belongs to the host: it stays open while the
///   device reboots, and bytes sent meanwhile are lost.
/// - `serial(baud:usb:lineLength:)` with `usb: true`: USB CDC-ACM. The baud rate is a label; a
///   full-speed bulk endpoint carries about 1 MB/s. The port is the device's: it disappears
///   while the device reboots (an open wire reads `.closed`, `open()` throws `.unavailable`
///   until the device enumerated again).
/// - `pseudoTerminal(lineLength:)`: a pseudo-terminal (a device exposed by a local program):
///   no line time, and it stays open across a reset.
/// - `udp(latency:)`: one datagram per message, each taking `latency` one way; datagrams sent
///   to a device that reboots are lost.
///
/// `lineLength` is the console line the device reads (Zephyr `CONFIG_UART_MCUMGR_RX_BUF_SIZE`,
/// MCUboot `CONFIG_BOOT_MAX_LINE_INPUT_LEN`, both 128 by default): the devices that frame
/// messages as console lines drop (Zephyr) or cut (MCUboot) longer lines.
public enum SimulatedWireLink: Sendable, Equatable, CustomStringConvertible {
    /// A UART at `baud`, or USB CDC-ACM (`usb`), with console lines of `lineLength` bytes.
    case serial(baud: Int, usb: Bool = false, lineLength: Int = 128)
    /// A pseudo-terminal: no line time; it stays open across a reset.
    case pseudoTerminal(lineLength: Int = 128)
    /// UDP: one datagram per message, `latency` one way.
    case udp(latency: Duration = .milliseconds(1))

    /// The USB full-speed bulk rate a CDC-ACM port carries, bytes per second.
    public static let usbBytesPerSecond = 1_000_000

    /// Stream or datagrams.
    public var kind: WireKind {
        if case .udp = self { return .datagram }
        return .stream
    }

    /// The time one byte takes on the line; zero for a pseudo-terminal and UDP.
    public var byteTime: Duration {
        switch self {
        case let .serial(baud, usb, _):
            if usb { return .seconds(1) / Self.usbBytesPerSecond }
            return .seconds(10) / max(1, baud)
        case .pseudoTerminal, .udp:
            return .zero
        }
    }

    /// The fixed delay of each message or byte on top of its line time (UDP's latency).
    public var latency: Duration {
        if case let .udp(latency) = self { return latency }
        return .zero
    }

    /// Bytes per second of a UART (`ByteWire.lineRate`); nil for USB, a pseudo-terminal and UDP.
    public var lineRate: Int? {
        if case let .serial(baud, false, _) = self { return baud / 10 }
        return nil
    }

    /// Whether the port is the device's own (USB CDC-ACM): it goes away while the device reboots.
    public var portGoesAwayOnReset: Bool {
        if case .serial(_, true, _) = self { return true }
        return false
    }

    /// The console line length the device reads; nil for UDP.
    public var lineLength: Int? {
        switch self {
        case let .serial(_, _, lineLength), let .pseudoTerminal(lineLength): return lineLength
        case .udp: return nil
        }
    }

    /// `uart 115200 baud`, `usb cdc-acm`, `pty`, `udp (1 ms)`.
    public var description: String {
        switch self {
        case let .serial(baud, usb, _): return usb ? "usb cdc-acm" : "uart \(baud) baud"
        case .pseudoTerminal: return "pty"
        case let .udp(latency): return "udp (\(latency) one way)"
        }
    }
}
