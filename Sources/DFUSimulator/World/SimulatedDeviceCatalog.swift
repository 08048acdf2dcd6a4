/// The simulated devices `sim:NAME` can name.
public enum SimulatedDeviceCatalog {
    public static let names = ["vendor-ctrlpt", "nordic-secure-dfu", "nordic-legacy-dfu"]

    /// A world holding the configured device.
    public static func makeWorld(_ configuration: SimulatorConfiguration) throws(SimulatorConfigurationError) -> SimulatedWorld {
        let device: any SimulatedPeripheral
        let faults = configuration.faults
        switch configuration.deviceName {
        case "vendor-ctrlpt":
            try refuseNordicKeys(configuration)
            device = VendorControlPointDevice(address: configuration.address,
                                              name: configuration.advertisedName ?? "DFU-SIM",
                                              flash: configuration.flash,
                                              busyCommands: faults.busyCommands)
        case "nordic-secure-dfu":
            device = NordicSecureDFUDevice(address: configuration.address, name: configuration.advertisedName,
                                           buttonless: configuration.buttonless,
                                           publicKeyDER: configuration.publicKey?.der,
                                           resumePolicy: configuration.resumePolicy, flash: configuration.flash,
                                           failingCommands: faults.busyCommands)
        case "nordic-legacy-dfu":
            try refuseNordicKeys(configuration)
            device = NordicLegacyDFUDevice(address: configuration.address,
                                           name: configuration.advertisedName ?? "DfuTarg",
                                           flash: configuration.flash, failingCommands: faults.busyCommands)
        default:
            throw SimulatorConfigurationError(
                "no simulated device '\(configuration.deviceName)' (known: \(names.joined(separator: ", ")))")
        }
        return SimulatedWorld(name: "sim:\(configuration.deviceName)", settings: configuration.link,
                              faults: faults, peripherals: [device])
    }

    private static func refuseNordicKeys(_ configuration: SimulatorConfiguration) throws(SimulatorConfigurationError) {
        guard let key = configuration.deviceSpecificKeys.first else { return }
        throw SimulatorConfigurationError("\(key) applies to sim:nordic-secure-dfu only, not sim:\(configuration.deviceName)")
    }
}
