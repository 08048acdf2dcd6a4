/// `sim:NAME[?key=value&...]`: simulated peripherals on a virtual-clock link model (see the
/// README's simulator options). One device, its memory read from `state=FILE` (saved by
/// `SimulatorStateRegistry.shared.saveAll()`), or with `fleet=N` every device of the fleet in
/// one world (a scan lists them all; a flash connects to the first, or to `/ADDRESS`).
public struct SimulatorScheme: TransportScheme {
    /// A `sim:` scheme.
    public init() {}

    /// `sim`.
    public var name: String { "sim" }

    /// What it reaches.
    public var summary: String {
        "simulated devices: sim:NAME[?mtu=247&fault=...&fleet=N&state=FILE&realtime=SPEED], sim:replay?capture=FILE"
    }

    /// The device name and every option, read as `open` would read them.
    public func check(target: String) throws(DFUKitError) {
        if let replay = try SimulatedReplayTarget.parse(target) {
            _ = try replay.session()
            return
        }
        if try SimulatedWireTarget.parse(target) != nil { return }
        do {
            try SimulatedDeviceCatalog.check(try SimulatorConfiguration(parsing: target))
        } catch {
            throw DFUKitError(kind: .usage, message: error.description)
        }
    }

    /// The simulated world: one device, or a fleet; with `link=`, the device over a simulated
    /// serial line or UDP, speaking the profile's `links:` entry.
    public func open(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport {
        if let replay = try SimulatedReplayTarget.parse(request.target) {
            return try replay.transport(profile: request.profile)
        }
        if let wire = try SimulatedWireTarget.parse(request.target) {
            guard let profile = request.profile else {
                throw DFUKitError(kind: .usage, message: "sim:\(request.target): a device over a serial line or UDP is "
                                  + "reached with a profile (its links: say how messages travel); there is nothing to scan")
            }
            return try wire.transport(profile: profile, name: "sim:\(request.target)", traceFile: request.traceFile)
        }
        return try openWorld(configuration(request.target))
    }

    /// Bluetooth, or with `link=` a serial line (`uart`, `usb`, `pty`) or UDP.
    public func medium(target: String) -> LinkMedium {
        if let replay = try? SimulatedReplayTarget.parse(target) { return replay.medium }
        guard let wire = try? SimulatedWireTarget.parse(target) else { return .ble }
        return wire.kind == .udp ? .udp : .serial
    }

    /// With `link=`, the profile must say how its messages travel there.
    public func check(target: String, profile: Profile) throws(DFUKitError) {
        guard let wire = try SimulatedWireTarget.parse(target) else { return }
        let spec = try WireBinding.spec(profile: profile, kind: wire.kind, device: "sim:\(target)")
        try wire.options.check(against: spec, profile: profile.name, device: "sim:\(target)")
    }

    /// A fleet (`fleet=N`, or one device) as a batch's devices, each attempt on its own clock.
    /// - Throws: `.usage` with `state=`, which keeps one device's memory between single runs.
    public func batchSource(_ request: TransportRequest) throws(DFUKitError) -> any BatchDeviceSource {
        if try SimulatedReplayTarget.parse(request.target) != nil {
            throw DFUKitError(kind: .usage, message: "sim:replay replays one captured device; batch run does not take it")
        }
        let configuration = try configuration(request.target)
        guard configuration.stateFile == nil else {
            throw DFUKitError(kind: .usage, message: "state keeps one device's memory between single commands; "
                              + "batch run does not take it")
        }
        do {
            return SimulatedFleetSource(fleet: try SimulatedFleet(configuration))
        } catch {
            throw DFUKitError(kind: .usage, message: "\(error)")
        }
    }

    /// True: one fleet given twice is two radios hearing the same simulated devices (give each
    /// fleet its own `address=` for radios that hear different ones).
    public func sharesDevicesAcrossRadios(target: String) -> Bool { true }

    /// True unless `realtime=1` makes the world's clock the wall clock: at any other speed
    /// (`realtime=10`) its seconds are simulated seconds, paced against the wall clock but not
    /// equal to it (issue 21: such runs were labelled wall time).
    public func usesSimulatedClock(target: String) -> Bool {
        guard let pacing = (try? SimulatorConfiguration(parsing: target))?.pacing else { return true }
        return pacing.speed != 1
    }

    private func configuration(_ target: String) throws(DFUKitError) -> SimulatorConfiguration {
        do {
            return try SimulatorConfiguration(parsing: target)
        } catch {
            throw DFUKitError(kind: .usage, message: error.description)
        }
    }

    /// The world for `configuration`; with `state=FILE` its device's memory is loaded and the
    /// world registered to be saved.
    public func openWorld(_ configuration: SimulatorConfiguration) throws(DFUKitError) -> SimulatedWorld {
        if configuration.fleet > 1 {
            guard configuration.stateFile == nil else {
                throw DFUKitError(kind: .usage, message: "sim: state keeps one device's memory, not a fleet's: leave out fleet or state")
            }
            do {
                let fleet = try SimulatedFleet(configuration)
                let devices = fleet.advertisements.compactMap { fleet.device(at: $0.address) }
                let world = SimulatedWorld(name: "sim:\(configuration.deviceName)?fleet=\(configuration.fleet)",
                                           settings: configuration.link, faults: configuration.faults, peripherals: devices)
                // Heard as a batch hears them: the further down the fleet, the weaker.
                for advertisement in fleet.advertisements {
                    world.signalStrengths[advertisement.address] = advertisement.rssi
                }
                return world
            } catch {
                throw DFUKitError(kind: .usage, message: error.description)
            }
        }
        let world: SimulatedWorld
        do {
            world = try SimulatedDeviceCatalog.makeWorld(configuration)
        } catch {
            throw DFUKitError(kind: .usage, message: error.description)
        }
        if let path = configuration.stateFile {
            let file = SimulatorStateFile(path: path)
            do {
                try file.load(into: world, device: configuration.deviceName)
            } catch {
                throw DFUKitError(kind: .usage, message: "sim: state: \(error)")
            }
            SimulatorStateRegistry.shared.register(world, file: file, device: configuration.deviceName)
        }
        return world
    }
}
