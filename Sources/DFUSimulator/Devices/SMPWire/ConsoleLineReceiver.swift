import DFUBytes

/// A device's console receive buffer: it collects bytes up to each newline and hands on the
/// lines that start with an SMP console marker (`06 09`, `04 14`); other lines (a person
/// typing, line noise) are not SMP and are dropped, as both firmwares below drop them.
///
/// A line longer than the buffer (`lineLength` bytes, the newline included) is handled as the
/// firmware does:
/// - `.dropped`: Zephyr's `uart_mcumgr` driver (`subsys/mgmt/mcumgr/transport/src/uart_mcumgr.c`,
///   `uart_mcumgr_rx_byte`: "Line too long; drop this fragment") ignores the whole line up to
///   its newline. Buffer: `CONFIG_UART_MCUMGR_RX_BUF_SIZE`, 128.
/// - `.cut`: MCUboot's serial adapter (`boot/zephyr/serial_adapter.c`, `boot_uart_fifo_callback`)
///   keeps the first `CONFIG_BOOT_MAX_LINE_INPUT_LEN` (128) bytes and drops the rest with the
///   newline; `boot_serial_read_console` then takes the line's last byte for the newline it
///   expects, so the line reads as its first 127 bytes.
struct ConsoleLineReceiver: Sendable, Equatable {
    enum Overlong: Sendable, Equatable {
        case dropped
        case cut
    }

    let lineLength: Int
    let overlong: Overlong
    private var line: [UInt8] = []
    private var overflowed = false
    /// Lines dropped: not SMP, or too long (`.dropped`).
    private(set) var droppedLines = 0

    init(lineLength: Int, overlong: Overlong) {
        precondition(lineLength >= SMPConsoleFraming.minimumLineLength, "a console line of \(lineLength) bytes holds no frame")
        self.lineLength = lineLength
        self.overlong = overlong
    }

    /// The SMP frame lines `bytes` complete, each ending with its newline.
    mutating func feed(_ bytes: [UInt8]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        for byte in bytes {
            if line.count < lineLength {
                line.append(byte)
            } else {
                overflowed = true
            }
            guard byte == SMPConsoleFraming.newline else { continue }
            var complete = line
            let cut = overflowed
            line.removeAll(keepingCapacity: true)
            overflowed = false
            if cut {
                guard overlong == .cut else { droppedLines += 1; continue }
                complete = Array(complete.prefix(lineLength - 1)) + [SMPConsoleFraming.newline]
            }
            let marker = Array(complete.prefix(2))
            guard marker == SMPConsoleFraming.packetStartMarker || marker == SMPConsoleFraming.continuationMarker else {
                droppedLines += 1
                continue
            }
            frames.append(complete)
        }
        return frames
    }

    /// RAM is lost (a reset).
    mutating func reset() {
        line.removeAll()
        overflowed = false
    }
}
