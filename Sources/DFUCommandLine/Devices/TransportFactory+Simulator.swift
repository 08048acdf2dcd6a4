import DFUSimulator

extension TransportFactory {
    /// `sim:NAME?...`: one device, its memory read from `state=FILE` (and saved when the command
    /// ends), or with `fleet=N` every device of the fleet in one world (so `scan` lists them all;
    /// a command connects to the first, or to `/ADDRESS`).
    static func openSimulator(_ configuration: SimulatorConfiguration) throws(Failure) -> SimulatedWorld {
        if configuration.fleet > 1 {
            guard configuration.stateFile == nil else {
                throw .usage("sim: state keeps one device's memory, not a fleet's: leave out fleet or state")
            }
            do {
                let fleet = try SimulatedFleet(configuration)
                let devices = fleet.advertisements.compactMap { fleet.device(at: $0.address) }
                return SimulatedWorld(name: "sim:\(configuration.deviceName)?fleet=\(configuration.fleet)",
                                      settings: configuration.link, faults: configuration.faults, peripherals: devices)
            } catch {
                throw .usage(error.description)
            }
        }
        let world: SimulatedWorld
        do {
            world = try SimulatedDeviceCatalog.makeWorld(configuration)
        } catch {
            throw .usage(error.description)
        }
        if let path = configuration.stateFile {
            let file = SimulatorStateFile(path: path)
            do {
                try file.load(into: world, device: configuration.deviceName)
            } catch {
                throw .usage("sim: state: \(error)")
            }
            SimulatorStateRegistry.shared.register(world, file: file, device: configuration.deviceName)
        }
        return world
    }
}
