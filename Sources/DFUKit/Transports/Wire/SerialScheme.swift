import DFUGATT
import DFUProfile
import DFUSerial
import DFUWire

/// `serial:PORT[?baud=N&flow=hardware&line-length=N&buffer=N]`: a device on a serial port (a
/// UART, USB CDC-ACM), the profile's messages carried as its `links.serial` says. `PORT` is a
/// path (`/dev/ttyACM0`, `/dev/serial/by-path/...`), `usb-serial=SERIAL` or `usb-path=1-1.2`
/// (looked up at each open, so a device that re-enumerates under another name is found again);
/// several, comma-separated, or `all`, make a batch line (one device per port); a scan lists
/// the ports with their USB identities.
public struct SerialScheme: TransportScheme {
    /// Where ports are looked up (the machine's sysfs and /dev unless told otherwise).
    public var catalog: SerialPortCatalog

    /// A `serial:` scheme over the machine's ports.
    public init(catalog: SerialPortCatalog = SerialPortCatalog()) {
        self.catalog = catalog
    }

    /// `serial`.
    public var name: String { "serial" }

    /// What it reaches.
    public var summary: String {
        "serial ports: serial:/dev/ttyACM0, serial:usb-serial=SERIAL, serial:usb-path=1-1.2 "
            + "[?baud=115200&flow=hardware&line-length=127&buffer=N]; serial:all lists them (scan) or takes each (batch run)"
    }

    /// A serial line.
    public func medium(target: String) -> LinkMedium { .serial }

    /// The ports and every option, read as `open` would read them.
    public func check(target: String) throws(DFUKitError) {
        _ = try SerialTarget(parsing: target)
    }

    /// The profile must say how its messages travel on a serial line, and the options must fit
    /// its framing.
    public func check(target: String, profile: Profile) throws(DFUKitError) {
        let parsed = try SerialTarget(parsing: target)
        let spec = try WireBinding.spec(profile: profile, kind: .serial, device: "serial:\(target)")
        try parsed.link.check(against: spec, profile: profile.name, device: "serial:\(target)")
    }

    /// With a profile: the one port's device. Without (a scan): the ports, listed.
    public func open(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport {
        let parsed = try SerialTarget(parsing: request.target)
        guard let profile = request.profile else {
            return WirePortListing(name: "serial:\(request.target)", ports: { parsed.ports(in: catalog) })
        }
        guard parsed.selectors.count == 1, let selector = parsed.selectors.first else {
            throw DFUKitError(kind: .usage, message: "serial:\(request.target) names \(parsed.selectors.isEmpty ? "every port" : "several ports"); "
                              + "flash and exec take one (batch run takes several)")
        }
        return try transport(for: selector, parsed: parsed, profile: profile, traceFile: request.traceFile)
    }

    /// One device per port: the ports named, or every port (`all`), as a scan finds them.
    public func batchSource(_ request: TransportRequest) throws(DFUKitError) -> any BatchDeviceSource {
        let parsed = try SerialTarget(parsing: request.target)
        guard let profile = request.profile else {
            throw DFUKitError(kind: .usage, message: "serial: batches need the profile")
        }
        let catalog = catalog
        let services = try WireBinding.make(profile: profile, kind: .serial, options: parsed.link,
                                            device: "serial:\(request.target)").services.map(\.uuid)
        return WireBatchSource(services: services, list: {
            parsed.ports(in: catalog).map { port in
                (WireDeviceIdentity.address(for: SerialTarget.identity(of: port)), port.description,
                 SerialTarget.stableSelector(for: port))
            }
        }, transport: { selector throws(DFUKitError) in
            try self.transport(for: selector, parsed: parsed, profile: profile, traceFile: nil)
        })
    }

    private func transport(for selector: SerialPortSelector, parsed: SerialTarget, profile: Profile,
                           traceFile: String?) throws(DFUKitError) -> WireTransport {
        let device = "serial:\(selector)"
        let spec = try WireBinding.spec(profile: profile, kind: .serial, device: device)
        let binding = try WireBinding.make(profile: profile, kind: .serial, options: parsed.link, device: device)
        let baud: BaudRate
        do {
            baud = try parsed.baud ?? BaudRate(spec.baud ?? 115_200)
        } catch {
            throw DFUKitError(kind: .profile, message: "\(profile.name): links.serial.baud: \(error)")
        }
        let endpoint = SerialPortEndpoint(selector: selector,
                                          settings: SerialPortSettings(baudRate: baud, flowControl: parsed.flow),
                                          catalog: catalog)
        let port = catalog.ports().first { selector.matches($0) }
        let identity = port.map(SerialTarget.identity(of:)) ?? selector.description
        return WireTransport(endpoint: WireCaptureEndpoint.wrap(endpoint, traceFile: traceFile), binding: binding,
                             address: WireDeviceIdentity.address(for: identity))
    }
}

/// What follows `serial:`: the ports and the options.
struct SerialTarget {
    /// The ports named; empty for `all`.
    var selectors: [SerialPortSelector] = []
    var baud: BaudRate?
    var flow = SerialFlowControl.none
    var link = WireLinkOptions()

    static let keys = ["baud", "flow", "line-length", "buffer"]

    init(parsing target: String) throws(DFUKitError) {
        let device = "serial:\(target)"
        let (ports, options) = try WireLinkOptions.split(target, device: device)
        for (key, value) in options {
            switch key {
            case "baud":
                do { baud = try BaudRate(parsing: value) } catch {
                    throw DFUKitError(kind: .usage, message: "\(device): \(error)")
                }
            case "flow":
                guard let flow = SerialFlowControl(rawValue: value) else {
                    throw DFUKitError(kind: .usage, message: "\(device): flow= must be none or hardware (RTS/CTS), found '\(value)'")
                }
                self.flow = flow
            case "line-length", "buffer": continue
            default:
                throw DFUKitError(kind: .usage, message: "\(device): unknown option '\(key)'; serial: takes "
                                  + Self.keys.map { "\($0)=" }.joined(separator: ", "))
            }
        }
        link = try WireLinkOptions(options: options, device: device)
        guard ports != "all" else { return }
        for text in ports.split(separator: ",") {
            do {
                selectors.append(try SerialPortSelector(parsing: String(text)))
            } catch {
                throw DFUKitError(kind: .usage, message: "\(device): \(error)")
            }
        }
        if selectors.isEmpty {
            throw DFUKitError(kind: .usage, message: "\(device) names no port: write a path, usb-serial=SERIAL, usb-path=1-1.2 or all")
        }
    }

    /// The ports of `catalog` this target names, in its order (every port for `all`).
    func ports(in catalog: SerialPortCatalog) -> [SerialPortInfo] {
        let present = catalog.ports()
        if selectors.isEmpty { return present }
        return selectors.compactMap { selector in present.first { selector.matches($0) } }
    }

    /// What names a port for good: its USB serial number (and interface), else its physical
    /// USB path, else its device path.
    static func identity(of port: SerialPortInfo) -> String {
        stableSelector(for: port).description
    }

    /// The selector that finds this port again after a re-enumeration.
    static func stableSelector(for port: SerialPortInfo) -> SerialPortSelector {
        if let usb = port.usb {
            if let serial = usb.serialNumber { return .usbSerialNumber(serial, interface: usb.interfaceSuffix) }
            return .usbPath(usb.physicalPath, interface: usb.interfaceSuffix)
        }
        return .path(port.path)
    }
}
