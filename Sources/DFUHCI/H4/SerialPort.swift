#if canImport(Glibc)
import Glibc
#endif

/// Opens a UART (a USB dongle running an HCI-over-H4 firmware, e.g. Zephyr's hci_uart) in raw
/// mode at the given speed, 8N1, no flow control.
enum SerialPort {
    static func speedConstant(for baudRate: Int) -> speed_t? {
        let table: [Int: speed_t] = [
            9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600),
            115200: speed_t(B115200), 230400: speed_t(B230400), 460800: speed_t(B460800),
            921600: speed_t(B921600), 1_000_000: speed_t(B1000000), 2_000_000: speed_t(B2000000),
            3_000_000: speed_t(B3000000), 4_000_000: speed_t(B4000000),
        ]
        return table[baudRate]
    }

    static func open(path: String, baudRate: Int, name: String) throws(HCIError) -> Int32 {
        guard let speed = speedConstant(for: baudRate) else {
            throw HCIError(.transportUnavailable, detail: "\(name): unsupported baud rate \(baudRate)")
        }
        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            let hint = failure == EACCES ? "; add yourself to the dialout group" : ""
            throw HCIError(.transportUnavailable, detail: "\(name): cannot open \(path): \(errnoDescription(failure))\(hint)")
        }
        var options = termios()
        guard tcgetattr(descriptor, &options) == 0 else {
            let failure = errno
            SocketConnector.closeDescriptor(descriptor)
            throw HCIError(.transportUnavailable,
                           detail: "\(name): \(path) is not a serial port: \(errnoDescription(failure))")
        }
        cfmakeraw(&options)
        options.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        options.c_cflag &= ~(tcflag_t(CRTSCTS) | tcflag_t(CSTOPB))
        cfsetispeed(&options, speed)
        cfsetospeed(&options, speed)
        guard tcsetattr(descriptor, TCSANOW, &options) == 0 else {
            let failure = errno
            SocketConnector.closeDescriptor(descriptor)
            throw HCIError(.transportUnavailable, detail: "\(name): cannot configure \(path): \(errnoDescription(failure))")
        }
        _ = tcflush(descriptor, TCIOFLUSH)
        return descriptor
    }
}
