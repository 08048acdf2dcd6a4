/// A link without GATT that a profile can run over (`links:`).
public enum WireLinkKind: String, Sendable, Hashable, CaseIterable {
    /// A byte stream: a UART, a pseudo-terminal, USB CDC-ACM.
    case serial
    /// UDP datagrams.
    case udp
}

/// How messages are framed on a serial or UDP link; the raw value is how profiles write it.
public enum WireFramingKind: String, Sendable, Hashable, CaseIterable {
    /// SMP's console framing (Zephyr `smp_transport.rst`): base64 lines of at most
    /// `line-length` bytes behind `06 09` / `04 14` markers, a length first and a CRC-16 last.
    case smpConsole = "smp-console"
    /// Raw binary SMP on a UART: the 8-byte header's length delimits each message; a pause
    /// longer than `idle-timeout` drops a partial one.
    case smpRaw = "smp-raw"
    /// SLIP (RFC 1055; Nordic's serial DFU): END `C0`, ESC `DB`.
    case slip
    /// One message per datagram (UDP).
    case datagram

    /// The framings a link kind takes.
    public static func allowed(on kind: WireLinkKind) -> [WireFramingKind] {
        switch kind {
        case .serial: [.smpConsole, .smpRaw, .slip]
        case .udp: [.datagram]
        }
    }
}

/// How a profile's messages are carried over a serial line or UDP: which characteristics'
/// writes become messages (after which prefix bytes), and which characteristic the device's
/// messages are notifications of. The engine then runs the same procedure as over BLE.
public struct WireLinkSpec: Sendable, Equatable {
    /// One characteristic whose writes the link carries.
    public struct CarriedWrite: Sendable, Equatable {
        /// The characteristic's role name.
        public var characteristic: String
        /// Bytes put before each written value (Nordic's serial Object Write opcode `08` before
        /// what BLE writes to the DFU Packet characteristic).
        public var prefix: [UInt8]

        /// Writes to `characteristic`, after `prefix`.
        public init(characteristic: String, prefix: [UInt8] = []) {
            self.characteristic = characteristic
            self.prefix = prefix
        }
    }

    /// Serial or UDP.
    public var kind: WireLinkKind
    /// How messages are framed.
    public var framing: WireFramingKind
    /// `smp-console`: the longest frame the device's console takes, marker and newline
    /// included (Zephyr's default: 127).
    public var lineLength: Int
    /// The largest message the device takes (its receive buffer), when known; a device
    /// string's `buffer=` overrides it. Procedures read it as `link.buffer` (0 when unknown).
    public var buffer: Int?
    /// `smp-raw`: how long the line may pause inside a message before the device drops it.
    public var idleTimeout: Duration?
    /// The characteristics whose writes the link carries.
    public var carries: [CarriedWrite]
    /// The characteristic the device's messages are notifications of.
    public var answers: String
    /// `serial`: the baud rate unless the device string says another (`baud=`).
    public var baud: Int?
    /// `udp`: the port unless the device string names one (Zephyr's SMP UDP default is 1337).
    public var port: Int?
    /// Where the entry is written.
    public var location: SourceLocation

    /// A link entry from its parts.
    public init(kind: WireLinkKind, framing: WireFramingKind, lineLength: Int = WireLinkSpec.defaultLineLength,
                buffer: Int? = nil, idleTimeout: Duration? = nil, carries: [CarriedWrite], answers: String,
                baud: Int? = nil, port: Int? = nil, location: SourceLocation) {
        self.kind = kind
        self.framing = framing
        self.lineLength = lineLength
        self.buffer = buffer
        self.idleTimeout = idleTimeout
        self.carries = carries
        self.answers = answers
        self.baud = baud
        self.port = port
        self.location = location
    }

    /// 127: Zephyr's SMP console frames (`MCUMGR_SERIAL_MAX_FRAME`), marker and newline included.
    public static let defaultLineLength = 127
}
