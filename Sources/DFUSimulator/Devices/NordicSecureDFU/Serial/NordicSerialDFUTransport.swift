/// Which serial transport of the nRF5 SDK 15-17 Secure DFU bootloader a `NordicSerialDFUDevice`
/// runs. Both hand their SLIP frames to `nrf_dfu_serial.c`; they differ in buffer size and in
/// what closing the transport and resetting do to the port.
public enum NordicSerialDFUTransport: String, Sendable, CaseIterable {
    /// A UART (`nrf_dfu_serial_uart.c`, the `pca10040_uart` and `pca10056_uart` bootloaders:
    /// 115200 baud, RTS/CTS flow control, `NRF_DFU_SERIAL_UART_USES_HWFC` 1). `RX_BUF_SIZE` is
    /// 64, so the decode buffer and the MTU it reports are `UART_SLIP_MTU` =
    /// 2 * (64 + 1) + 1 = 131. The port is the host's: it stays while the bootloader resets.
    /// When the DFU completes or is aborted, `nrf_dfu.c` closes the transports and
    /// `uart_dfu_transport_close` uninitialises the UART, so from then on it hears nothing.
    case uart
    /// USB CDC ACM (`nrf_dfu_serial_usb.c`, the `pca10056_usb` bootloader of the nRF52840).
    /// `RX_BUF_SIZE` is 1024, so the buffer and MTU are `SLIP_MTU` = 2 * (1024 + 1) + 1 = 2051.
    /// `usb_dfu_transport_close` does nothing: the bootloader keeps hearing requests until it
    /// resets, and then the USB device, and with it the host's port, goes away until it boots.
    case usbCDCACM = "usb"

    /// The MTU the transport reports to Get MTU (`07`), and the size of its SLIP decode buffer.
    public var defaultMTU: Int {
        switch self {
        case .uart: return 131
        case .usbCDCACM: return 2051
        }
    }

    /// `serial UART`, `USB CDC ACM`.
    public var name: String {
        switch self {
        case .uart: return "serial UART"
        case .usbCDCACM: return "USB CDC ACM"
        }
    }

    /// Whether closing the transport at the end of DFU makes it deaf before the reset
    /// (`uart_dfu_transport_close` does; `usb_dfu_transport_close` does nothing).
    var closeStopsListening: Bool { self == .uart }
}
