import DFUGATT
import DFUProfile
import DFUSimulator
import DFUWire

/// `sim:NAME?link=uart|usb|pty|udp[&baud=N]...`: a simulated device reached over a serial line
/// or UDP instead of Bluetooth, its device end modeled on the firmware's own transport (Zephyr's
/// SMP console or UDP server, MCUboot's serial recovery, nrf_dfu_serial). The wire keys are read
/// here; every other key goes to the simulator as for a Bluetooth device.
struct SimulatedWireTarget {
    /// How the device is reached.
    enum Link: String, CaseIterable {
        /// A UART at `baud` (10 bits a byte); the port stays while the device resets.
        case uart
        /// USB CDC-ACM: fast, and the port goes away while the device resets.
        case usb
        /// A pseudo-terminal: fast, never goes away.
        case pty
        /// UDP datagrams.
        case udp
    }

    var link: Link
    var baud = 115_200
    var options = WireLinkOptions()
    /// The rest of the target, for `SimulatorConfiguration`.
    var configuration: SimulatorConfiguration

    /// Whether the device's console also prints (a Zephyr boot banner and log lines).
    var consoleLog = false
    /// MCUboot serial recovery: whether the application it boots answers SMP on the same port.
    var appSpeaksSMP = true

    /// The wire keys (`link`, `baud`, `line-length`, `buffer`, `console-log`).
    static let keys = ["link", "baud", "line-length", "buffer", "console-log", "app-smp"]

    /// Nil when the target names no `link` (a Bluetooth device).
    static func parse(_ target: String) throws(DFUKitError) -> SimulatedWireTarget? {
        let device = "sim:\(target)"
        let (name, options) = try WireLinkOptions.split(target, device: device)
        guard let linkText = options.first(where: { $0.key == "link" })?.value else { return nil }
        guard let link = Link(rawValue: linkText) else {
            throw DFUKitError(kind: .usage, message: "\(device): link= must be one of "
                              + Link.allCases.map(\.rawValue).joined(separator: ", ") + ", found '\(linkText)'")
        }
        var baud = 115_200
        if let text = options.first(where: { $0.key == "baud" })?.value {
            baud = try WireLinkOptions.number(text, key: "baud", range: 1200...4_000_000, device: device)
            if link != .uart {
                throw DFUKitError(kind: .usage, message: "\(device): baud= sets a UART's rate; link=\(link.rawValue) has none")
            }
        }
        let rest = options.filter { !keys.contains($0.key) }.map { "\($0.key)=\($0.value)" }
        let simulator: SimulatorConfiguration
        do {
            simulator = try SimulatorConfiguration(parsing: rest.isEmpty ? name : name + "?" + rest.joined(separator: "&"))
        } catch {
            throw DFUKitError(kind: .usage, message: error.description)
        }
        guard let kinds = devices[simulator.deviceName] else {
            throw DFUKitError(kind: .usage, message: "\(device): sim:\(simulator.deviceName) has no serial or UDP "
                              + "transport; those that do: " + devices.keys.sorted().joined(separator: ", "))
        }
        guard kinds.contains(link) else {
            throw DFUKitError(kind: .usage, message: "\(device): sim:\(simulator.deviceName) is not reached over "
                              + "link=\(link.rawValue); it takes link=" + kinds.map(\.rawValue).joined(separator: ", "))
        }
        var target = SimulatedWireTarget(link: link, baud: baud, configuration: simulator)
        target.options = try WireLinkOptions(options: options, device: device)
        if let log = options.first(where: { $0.key == "console-log" })?.value {
            guard log == "0" || log == "1" else {
                throw DFUKitError(kind: .usage, message: "\(device): console-log= must be 0 or 1, found '\(log)'")
            }
            target.consoleLog = log == "1"
        }
        if let smp = options.first(where: { $0.key == "app-smp" })?.value {
            guard smp == "0" || smp == "1" else {
                throw DFUKitError(kind: .usage, message: "\(device): app-smp= must be 0 or 1, found '\(smp)'")
            }
            target.appSpeaksSMP = smp == "1"
        }
        return target
    }

    /// The simulated devices with a serial or UDP transport, and the links each takes.
    static let devices: [String: [Link]] = [
        "nordic-secure-dfu": [.uart, .usb, .pty],
        "mcumgr-smp": [.uart, .usb, .pty, .udp],
        "mcuboot-recovery": [.uart, .usb, .pty],
    ]

    /// Serial or UDP.
    var kind: WireLinkKind { link == .udp ? .udp : .serial }

    /// What the line costs.
    var wireLink: SimulatedWireLink {
        let lineLength = options.lineLength ?? WireLinkSpec.defaultLineLength + 1
        switch link {
        case .uart: return .serial(baud: baud, lineLength: lineLength)
        case .usb: return .serial(baud: baud, usb: true, lineLength: lineLength)
        case .pty: return .pseudoTerminal(lineLength: lineLength)
        case .udp: return .udp()
        }
    }

    /// The device end.
    func makeDevice() -> any SimulatedWirePeripheral {
        switch configuration.deviceName {
        case "mcumgr-smp":
            // Zephyr's net_bufs: CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE 384 for the serial transports,
            // 2048 for UDP, unless the target sets buf-size.
            var settings = configuration.smpServer
            if settings.bufferSize == SMPServerSettings().bufferSize { settings.bufferSize = link == .udp ? 2048 : 384 }
            settings.flash = configuration.flash
            let timing = configuration.timing
            settings.resetDelay = timing.resetDelay ?? settings.resetDelay
            settings.bootTime = timing.boot ?? settings.bootTime
            settings.swapPerKiB = timing.swapPerKiB ?? settings.swapPerKiB
            return SMPWireDevice(transport: link == .udp ? .udp(mtu: 1500) : .console, settings: settings,
                                 lineLength: options.lineLength ?? WireLinkSpec.defaultLineLength + 1,
                                 consoleLog: consoleLog ? ZephyrConsoleLog() : nil)
        case "mcuboot-recovery":
            var settings = MCUbootSerialRecoverySettings()
            settings.flash = configuration.flash
            settings.applicationSpeaksSMP = appSpeaksSMP
            if !consoleLog { settings.applicationLog = nil }
            if let buffer = options.buffer { settings.maximumReceiveSize = buffer }
            return MCUbootSerialRecoveryDevice(settings: settings,
                                               lineLength: options.lineLength ?? WireLinkSpec.defaultLineLength + 1)
        default:
            return NordicSerialDFUDevice(configuration: configuration, transport: link == .usb ? .usbCDCACM : .uart)
        }
    }

    /// The device as the engine reaches it: the profile's binding over a simulated wire.
    func transport(profile: Profile, name: String, traceFile: String? = nil) throws(DFUKitError) -> WireTransport {
        let binding = try WireBinding.make(profile: profile, kind: kind, options: options, device: name)
        let endpoint = SimulatedWireEndpoint(device: makeDevice(), link: wireLink, pacing: configuration.pacing, name: name)
        return WireTransport(endpoint: WireCaptureEndpoint.wrap(endpoint, traceFile: traceFile), binding: binding,
                             address: configuration.address)
    }
}
