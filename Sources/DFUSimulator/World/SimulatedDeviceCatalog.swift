/// The simulated devices `sim:NAME` can name.
public enum SimulatedDeviceCatalog {
    public static let names = ["vendor-ctrlpt"]

    /// A world holding the configured device.
    public static func makeWorld(_ configuration: SimulatorConfiguration) throws(SimulatorConfigurationError) -> SimulatedWorld {
        let device: any SimulatedPeripheral
        switch configuration.deviceName {
        case "vendor-ctrlpt":
            device = VendorControlPointDevice(address: configuration.address,
                                              name: configuration.advertisedName ?? "DFU-SIM",
                                              flash: configuration.flash,
                                              busyCommands: configuration.faults.busyCommands)
        default:
            throw SimulatorConfigurationError(
                "no simulated device '\(configuration.deviceName)' (known: \(names.joined(separator: ", ")))")
        }
        return SimulatedWorld(name: "sim:\(configuration.deviceName)", settings: configuration.link,
                              faults: configuration.faults, peripherals: [device])
    }
}
