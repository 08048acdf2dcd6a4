/// What is behind a terminal device, told by its driver's major number: whether its baud rate
/// is a real line rate.
public enum SerialLineKind: String, Sendable, Hashable {
    /// A UART (a USB-to-serial adapter such as an FTDI or CP210x `ttyUSB`, an on-board `ttyS` or
    /// `ttyAMA`): bytes go out at the baud rate.
    case uart
    /// A USB CDC-ACM port (`ttyACM`, major 166): bytes go at USB speed; the baud rate is a label.
    case usbCDCACM = "usb-cdc-acm"
    /// A pseudo-terminal's subordinate (`/dev/pts/N`, majors 136-143): no line at all.
    case pseudoTerminal = "pseudo-terminal"

    /// The kind of a device with this major number.
    package init(major: UInt32) {
        switch major {
        case 136...143: self = .pseudoTerminal
        case 166: self = .usbCDCACM
        default: self = .uart
        }
    }
}
