/// The simulated devices `sim:NAME` can name.
public enum SimulatedDeviceCatalog {
    /// The names of the simulated devices, as `sim:NAME` takes them.
    public static let names = ["vendor-ctrlpt", "nordic-secure-dfu", "nordic-legacy-dfu", "mcumgr-smp", "dialog-suota", "silabs-ota", "ti-oad", "telink-ota"]

    /// A world holding the configured device.
    public static func makeWorld(_ configuration: SimulatorConfiguration) throws(SimulatorConfigurationError) -> SimulatedWorld {
        let device: any SimulatedPeripheral
        let faults = configuration.faults
        if names.contains(configuration.deviceName) { try refuseForeignKeys(configuration) }
        switch configuration.deviceName {
        case "vendor-ctrlpt":
            var timing = VendorControlPointDevice.Timing()
            timing.resetDelay = configuration.timing.resetDelay ?? timing.resetDelay
            timing.boot = configuration.timing.boot ?? timing.boot
            device = VendorControlPointDevice(address: configuration.address,
                                              name: configuration.advertisedName ?? "DFU-SIM",
                                              flash: configuration.flash, busyCommands: faults.busyCommands,
                                              timing: timing, commandDisconnects: faults.commandDisconnects)
        case "nordic-secure-dfu":
            device = NordicSecureDFUDevice(address: configuration.address, name: configuration.advertisedName,
                                           buttonless: configuration.buttonless,
                                           publicKeyDER: configuration.publicKey?.der,
                                           resumePolicy: configuration.resumePolicy, flash: configuration.flash,
                                           failingCommands: faults.busyCommands,
                                           bootTime: configuration.timing.boot ?? SecureDFUTiming.defaultBootTime,
                                           commandDisconnects: faults.commandDisconnects)
        case "nordic-legacy-dfu":
            device = NordicLegacyDFUDevice(address: configuration.address,
                                           name: configuration.advertisedName ?? "DfuTarg",
                                           flash: configuration.flash, failingCommands: faults.busyCommands,
                                           bootTime: configuration.timing.boot ?? .milliseconds(1100),
                                           commandDisconnects: faults.commandDisconnects)
        case "mcumgr-smp":
            var settings = configuration.smpServer
            settings.flash = configuration.flash
            settings.busyRequests = faults.busyCommands
            settings.commandDisconnects = faults.commandDisconnects
            let timing = configuration.timing
            settings.resetDelay = timing.resetDelay ?? settings.resetDelay
            settings.bootTime = timing.boot ?? settings.bootTime
            settings.swapPerKiB = timing.swapPerKiB ?? settings.swapPerKiB
            device = SMPServerDevice(address: configuration.address, name: configuration.advertisedName ?? "Zephyr SMP",
                                     settings: settings)
        case "dialog-suota":
            device = DialogSUOTADevice(address: configuration.address, name: configuration.advertisedName ?? "DLG-SUOTA",
                                       flash: configuration.flash,
                                       timing: DialogSUOTADevice.Timing(boot: configuration.timing.boot ?? .milliseconds(1000)),
                                       settings: configuration.dialogSUOTA, failingWrites: faults.busyCommands, commandDisconnects: faults.commandDisconnects)
        case "silabs-ota":
            var timing = SilabsOTADevice.Timing()
            timing.closeDelay = configuration.timing.resetDelay ?? timing.closeDelay
            timing.boot = configuration.timing.boot ?? timing.boot
            device = SilabsOTADevice(address: configuration.address, name: configuration.advertisedName ?? "SiLabs-App",
                                     settings: configuration.silabsOTA, flash: configuration.flash, timing: timing,
                                     commandDisconnects: faults.commandDisconnects)
        case "ti-oad":
            let settings = configuration.tiOAD
            var timing = TIOADDevice.Timing(inactivity: settings.inactivity)
            timing.resetDelay = configuration.timing.resetDelay ?? timing.resetDelay
            timing.boot = configuration.timing.boot ?? timing.boot
            device = TIOADDevice(address: configuration.address, name: configuration.advertisedName ?? "TI OAD Target",
                                 imageID: settings.imageID,
                                 running: TIOADDevice.factoryImage(imageID: settings.imageID,
                                                                   softwareVersion: settings.softwareVersion),
                                 flash: configuration.flash, timing: timing, corruptBlock: settings.corruptBlock,
                                 failingBlockWrites: faults.busyCommands, commandDisconnects: faults.commandDisconnects,
                                 bimCRCFails: settings.bimCRCFails, enableAnswerLost: settings.enableAnswerLost)
        case "telink-ota":
            device = TelinkOTADevice(address: configuration.address, name: configuration.advertisedName ?? "Telink-OTA",
                                     firmwareRevision: configuration.firmwareRevision ?? "1.0.0",
                                     settings: configuration.telinkServer, flash: configuration.flash,
                                     bootTime: configuration.timing.boot ?? .milliseconds(300),
                                     commandDisconnects: faults.commandDisconnects)
        default:
            throw SimulatorConfigurationError(
                "no simulated device '\(configuration.deviceName)' (known: \(names.joined(separator: ", ")))")
        }
        return SimulatedWorld(name: "sim:\(configuration.deviceName)", settings: configuration.link,
                              faults: faults, peripherals: [device], pacing: configuration.pacing,
                              journal: try configuration.journalDirectory.map(SimulatedDeviceJournal.opening(directory:)))
    }

    /// The command names `disconnect-on` and `disconnect-after-command` take, per device: the
    /// profile's command names where a request maps to one.
    package static let commandNames: [String: [String]] = [
        "vendor-ctrlpt": VendorControlPointDevice.commandNames,
        "nordic-secure-dfu": NordicSecureDFUDevice.commandNames,
        "nordic-legacy-dfu": NordicLegacyDFUDevice.commandNames,
        "mcumgr-smp": SMPServerDevice.commandNames,
        "dialog-suota": DialogSUOTADevice.commandNames,
        "silabs-ota": SilabsOTADevice.commandNames,
        "ti-oad": TIOADDevice.commandNames,
        "telink-ota": TelinkOTADevice.commandNames,
    ]

    /// Checks a configuration without building its device: the device exists and every key
    /// applies to it. `makeWorld` checks the same; the command line calls this while it reads
    /// its arguments, before anything else is opened.
    public static func check(_ configuration: SimulatorConfiguration) throws(SimulatorConfigurationError) {
        guard names.contains(configuration.deviceName) else {
            throw SimulatorConfigurationError(
                "no simulated device '\(configuration.deviceName)' (known: \(names.joined(separator: ", ")))")
        }
        try refuseForeignKeys(configuration)
    }

    /// Refuses keys meant for another device (`buttonless` on sim:mcumgr-smp, `buf-size` on
    /// sim:vendor-ctrlpt, ...) and command faults naming a command the device does not have.
    private static func refuseForeignKeys(_ configuration: SimulatorConfiguration) throws(SimulatorConfigurationError) {
        let device = configuration.deviceName
        for key in configuration.deviceSpecificKeys {
            guard let owners = SimulatorConfiguration.deviceSpecificKeyOwners[key], !owners.contains(device) else { continue }
            throw SimulatorConfigurationError(
                "\(key) applies to \(owners.map { "sim:\($0)" }.joined(separator: " and ")) only, not sim:\(device)")
        }
        let known = commandNames[device] ?? []
        for fault in configuration.faults.commandDisconnects where !known.contains(fault.command) {
            throw SimulatorConfigurationError(
                "fault \(fault.moment.rawValue): sim:\(device) has no command '\(fault.command)' (known: "
                    + known.joined(separator: ", ") + ")")
        }
    }
}
