import DFUWire

/// How a serial port is named, found again at each open so that a device that re-enumerates
/// under another tty number (a USB CDC-ACM device after a reset: `ttyACM0` becomes `ttyACM1`),
/// or a re-plugged hub, is still reached.
///
/// Written as a path (`/dev/ttyACM0`, `/dev/serial/by-id/...`, `/dev/serial/by-path/...`), as
/// `usb-serial=SERIAL` (the device's USB serial number) or `usb-path=BUS-PORT[.PORT...]` (its
/// physical position); the USB forms may name one interface of a device with several ports:
/// `usb-serial=E3B0C442:1.2`, `usb-path=1-1.2:1.0`.
public enum SerialPortSelector: Sendable, Hashable, CustomStringConvertible {
    /// A device node, or a link to one (udev's `/dev/serial/by-id` links are made again for the
    /// new node after a re-enumeration), opened as it is.
    case path(String)
    /// The port of the USB device with this serial number; of the interface `interface`
    /// (configuration.interface: `1.2`) when given.
    case usbSerialNumber(String, interface: String?)
    /// The port of the USB device at this physical position (`1-1.2`); of the interface
    /// `interface` (`1.0`) when given.
    case usbPath(String, interface: String?)

    /// The selector written as text.
    /// - Throws: when a `usb-...=` form is malformed or unknown, with the forms to use.
    public init(parsing text: String) throws(WireSettingError) {
        func refuse(_ detail: String) -> WireSettingError {
            WireSettingError(setting: "serial port", value: text,
                             detail: "\(detail); write a path (/dev/ttyACM0), usb-serial=SERIAL[:CONFIG.INTERFACE] "
                                 + "or usb-path=BUS-PORT[.PORT...][:CONFIG.INTERFACE]")
        }
        if text.hasPrefix("usb-serial=") {
            let (serial, interface) = Self.splitInterface(String(text.dropFirst("usb-serial=".count)))
            guard !serial.isEmpty else { throw refuse("no serial number after usb-serial=") }
            self = .usbSerialNumber(serial, interface: interface)
        } else if text.hasPrefix("usb-path=") {
            let (path, interface) = Self.splitInterface(String(text.dropFirst("usb-path=".count)))
            guard Self.isPhysicalPath(path) else {
                throw refuse("'\(path)' is not a USB position such as 1-1.2 (bus 1, port 1, hub port 2)")
            }
            self = .usbPath(path, interface: interface)
        } else if let equals = text.firstIndex(of: "="), !text[..<equals].contains("/") {
            throw refuse("unknown form '\(text[...equals])'")
        } else if text.isEmpty {
            throw refuse("empty")
        } else {
            self = .path(text)
        }
    }

    /// How it is written: `/dev/ttyACM0`, `usb-serial=E3B0C442`, `usb-path=1-1.2:1.0`.
    public var description: String {
        switch self {
        case let .path(path): return path
        case let .usbSerialNumber(serial, interface): return "usb-serial=\(serial)" + (interface.map { ":\($0)" } ?? "")
        case let .usbPath(path, interface): return "usb-path=\(path)" + (interface.map { ":\($0)" } ?? "")
        }
    }

    /// Whether `port` is one this selector names.
    public func matches(_ port: SerialPortInfo) -> Bool {
        switch self {
        case let .path(path):
            return port.path == path || port.byIDPaths.contains(path) || port.byPathPaths.contains(path)
        case let .usbSerialNumber(serial, interface):
            guard let usb = port.usb, usb.serialNumber == serial else { return false }
            return interface == nil || usb.interfaceSuffix == interface
        case let .usbPath(path, interface):
            guard let usb = port.usb, usb.physicalPath == path else { return false }
            return interface == nil || usb.interfaceSuffix == interface
        }
    }

    /// The node to open now: the path itself, or the one port of the catalog the USB form
    /// names.
    /// - Throws: `.unavailable` when no port matches, or several do; saying what was looked for
    ///   and which ports there are.
    public func resolve(in catalog: SerialPortCatalog) throws(WireError) -> String {
        if case let .path(path) = self { return path }
        let ports = catalog.ports()
        let matching = ports.filter(matches)
        switch matching.count {
        case 1:
            return matching[0].path
        case 0:
            throw WireError(.unavailable, wire: description,
                            detail: "no \(lookedFor) is plugged in now; \(Self.listing(ports))")
        default:
            let choices = matching.compactMap { port in port.usb.map { "\(port.path): \(narrowed(to: $0))" } }
            throw WireError(.unavailable, wire: description,
                            detail: "\(matching.count) ports match (the device has several interfaces); name one: "
                                + choices.joined(separator: ", "))
        }
    }

    /// "serial ports here: ..." or "there are no serial ports here".
    static func listing(_ ports: [SerialPortInfo]) -> String {
        ports.isEmpty ? "there are no serial ports here"
                      : "serial ports here: " + ports.map(\.description).joined(separator: "; ")
    }

    private var lookedFor: String {
        switch self {
        case let .path(path): return path
        case let .usbSerialNumber(serial, interface):
            return "USB serial port with serial number \(serial)" + (interface.map { " and interface \($0)" } ?? "")
        case let .usbPath(path, interface):
            return "USB serial port at \(path)" + (interface.map { " interface \($0)" } ?? "")
        }
    }

    /// This selector narrowed to the interface of `usb`.
    private func narrowed(to usb: USBSerialPortInfo) -> String {
        switch self {
        case let .usbSerialNumber(serial, _):
            return SerialPortSelector.usbSerialNumber(serial, interface: usb.interfaceSuffix).description
        case .path, .usbPath:
            return "usb-path=\(usb.interfacePath)"
        }
    }

    /// `E3B0C442:1.2` -> (`E3B0C442`, `1.2`); a value without a `:C.I` tail stays whole.
    private static func splitInterface(_ value: String) -> (String, String?) {
        guard let colon = value.lastIndex(of: ":") else { return (value, nil) }
        let tail = value[value.index(after: colon)...]
        let parts = tail.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return (value, nil) }
        return (String(value[..<colon]), String(tail))
    }

    /// `1-1.2`: a bus number, a dash, port numbers joined by dots.
    private static func isPhysicalPath(_ text: String) -> Bool {
        let halves = text.split(separator: "-", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty, halves[0].allSatisfy(\.isNumber) else { return false }
        let ports = halves[1].split(separator: ".", omittingEmptySubsequences: false)
        return ports.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
