import DFUBytes

/// How a Zephyr SMP server is reached without Bluetooth (the SMP transports in
/// `subsys/mgmt/mcumgr/transport/src/`).
public enum SMPWireTransport: Sendable, Equatable {
    /// SMP over a console (`CONFIG_MCUMGR_TRANSPORT_UART`, `smp_uart.c` over the `uart_mcumgr`
    /// driver): base64 frames in lines; lines longer than the link's `lineLength`
    /// (`CONFIG_UART_MCUMGR_RX_BUF_SIZE`, 128) are dropped, other lines ignored.
    case console
    /// Raw binary SMP on a UART (`CONFIG_MCUMGR_TRANSPORT_RAW_UART`, `smp_raw_uart.c`):
    /// messages delimited by their header's length. `inputTimeout`
    /// (`CONFIG_MCUMGR_TRANSPORT_RAW_UART_INPUT_TIMEOUT_TIME_MS`, 3000 when enabled; off by
    /// default) drops a partial message once no byte came for that long.
    case raw(inputTimeout: Duration?)
    /// UDP (`CONFIG_MCUMGR_TRANSPORT_UDP`, `smp_udp.c`, port `CONFIG_MCUMGR_TRANSPORT_UDP_PORT`,
    /// 1337 in the samples): one message per datagram, read into a buffer of `mtu` bytes
    /// (`CONFIG_MCUMGR_TRANSPORT_UDP_MTU`, 1500); a longer datagram is cut there and dropped.
    case udp(mtu: Int)

    /// Zephyr's default UDP port for SMP.
    public static let udpPort = 1337

    /// `console`, `raw`, `udp`.
    public var name: String {
        switch self {
        case .console: return "console"
        case .raw: return "raw"
        case .udp: return "udp"
        }
    }
}

/// The receive side of an SMP transport on a device: bytes (or datagrams) in, SMP packets out.
/// Pure; the device runs its timeouts.
struct SMPDeviceReceiver: Sendable {
    private enum Mode: Sendable {
        case console(ConsoleLineReceiver, SMPConsoleDecoder)
        case raw(SMPRawDeframer)
        case datagram(mtu: Int)
    }

    private var mode: Mode
    private let initial: Mode
    /// Frames and packets dropped (bad base64, CRC, length, a line too long, a datagram too long).
    private(set) var discards = 0

    /// Zephyr's receiver: console lines of `lineLength` bytes dropped when longer, packets of at
    /// most `bufferSize - 4` bytes (the total length, packet and CRC decode into one net_buf of
    /// `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE` bytes); raw messages of at most `bufferSize`.
    static func zephyr(_ transport: SMPWireTransport, lineLength: Int, bufferSize: Int) -> SMPDeviceReceiver {
        switch transport {
        case .console:
            return SMPDeviceReceiver(mode: .console(ConsoleLineReceiver(lineLength: lineLength, overlong: .dropped),
                                                    SMPConsoleDecoder(maximumFrameLength: lineLength,
                                                                      maximumPacketLength: max(0, bufferSize - 4))))
        case .raw:
            return SMPDeviceReceiver(mode: .raw(SMPRawDeframer(maximumMessageLength: max(SMPRawDeframer.headerLength, bufferSize))))
        case let .udp(mtu):
            return SMPDeviceReceiver(mode: .datagram(mtu: mtu))
        }
    }

    /// MCUboot's serial recovery receiver (`boot_serial.c`): console lines of `lineLength`
    /// bytes cut when longer; the decoded total length, packet and CRC in
    /// `MCUBOOT_SERIAL_MAX_RECEIVE_SIZE + 1` bytes (`dec_buf`); raw messages of at most that.
    static func mcuboot(raw: Bool, lineLength: Int, maximumReceive: Int) -> SMPDeviceReceiver {
        if raw {
            return SMPDeviceReceiver(mode: .raw(SMPRawDeframer(maximumMessageLength: max(SMPRawDeframer.headerLength, maximumReceive + 1))))
        }
        return SMPDeviceReceiver(mode: .console(ConsoleLineReceiver(lineLength: lineLength, overlong: .cut),
                                                SMPConsoleDecoder(maximumFrameLength: lineLength,
                                                                  maximumPacketLength: max(0, maximumReceive + 1 - 4))))
    }

    private init(mode: Mode) {
        self.mode = mode
        self.initial = mode
    }

    /// The packets `bytes` complete.
    mutating func packets(from bytes: [UInt8]) -> [[UInt8]] {
        switch mode {
        case .console(var lines, var decoder):
            var packets: [[UInt8]] = []
            let frames = lines.feed(bytes)
            for frame in frames {
                for output in decoder.feed(frame) {
                    switch output {
                    case let .packet(packet): packets.append(packet)
                    case .discarded: discards += 1
                    case .consoleText: break
                    }
                }
            }
            mode = .console(lines, decoder)
            return packets
        case .raw(var deframer):
            let outputs = deframer.feed(bytes)
            mode = .raw(deframer)
            return collect(outputs)
        case let .datagram(mtu):
            guard bytes.count <= mtu else {
                discards += 1
                return []
            }
            return [bytes]
        }
    }

    /// The line was idle past the receiver's input timeout: a partial raw message is dropped.
    mutating func lineWentIdle() {
        guard case .raw(var deframer) = mode else { return }
        _ = collect(deframer.idle())
        mode = .raw(deframer)
    }

    /// RAM is lost: whatever was half received.
    mutating func reset() {
        mode = initial
    }

    private mutating func collect(_ outputs: [SMPRawDeframerOutput]) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        for output in outputs {
            switch output {
            case let .message(message): packets.append(message)
            case .discarded: discards += 1
            }
        }
        return packets
    }
}
