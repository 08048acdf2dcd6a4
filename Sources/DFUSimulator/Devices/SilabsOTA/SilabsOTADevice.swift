import DFUBytes
import DFUGATT

/// A Silicon Labs EFR32 with the in-place OTA DFU component in its application and the AppLoader
/// in its Gecko Bootloader (`sim:silabs-ota`; gecko_sdk 4.4.1, AN1086), as they ship:
///
/// - **Application**: advertises `name` (default "SiLabs-App") and the Silicon Labs OTA service
///   UUID (an application chooses what it advertises; this one lists the service, as
///   profiles/silabs-ota.yaml's match rule expects); GATT: the Silicon Labs OTA
///   service with OTA Control only (write) and the optional Application Version (read, u32 LE).
///   A write to OTA Control, whatever its value, is answered; then the application closes the
///   link `closeDelay` later (`sl_bt_in_place_ota_dfu.c`: at least
///   `SL_BT_IN_PLACE_OTA_DFU_MIN_DELAY_TO_DISCONNECT`, 1000 ms) and resets into the bootloader
///   (`bootloader_rebootAndInstall`); a client that drops the link first gets the same reset.
/// - **AppLoader** (after `boot`, default 500 ms, not documented: an assumption): advertises
///   "OTA" on the same address (`BTL_APPLOADER_DEVICE_NAME`; the public address by default), no
///   service UUID (`btl_apploader_common.c` advertises flags, the name and the address);
///   GATT (other handles than the application's): OTA Control (write), OTA Data (write, write
///   without response), AppLoader version (8 bytes), OTA version (1), Gecko Bootloader
///   version (4), Application version (4, zero without a valid application). Writes go to
///   `AppLoaderSession`; errors are ATT error responses (`AppLoaderError`).
/// - Every disconnect from the AppLoader resets the device (`bootloader_apploader_communication_main`
///   returns, `btl_main.c` resets): a verified image boots as the new application; without any
///   data the untouched application boots; otherwise, once program data was written, the
///   previous application is gone (first page erased, reset vector withheld) and the device
///   boots into the AppLoader again, until a whole verified image is written. No transfer
///   resumes: each AppLoader boot parses from the GBL header.
/// - A power glitch (`reboot-after`) boots whatever flash holds the same way.
/// - A refusal before any program data (a compressed tag with `compression=refused`, an unknown
///   tag early in the file, program data below `app-start`, an unmet version dependency with
///   `version-dependency=checked`) leaves the application untouched: the next reset boots it, as
///   the application, with its version (`SilabsOTASettings`).
/// - `end-answer=lost`: every 0x03 is processed, then the link drops before its answer; the
///   reset at that disconnect boots a verified image.
package final class SilabsOTADevice: SimulatedPeripheral {
    package enum Mode: Sendable, Equatable {
        case application
        case appLoader
    }

    /// An application in flash: the GBL it came from (nil: the factory application) and its version.
    package struct Application: Sendable, Equatable {
        package var gbl: [UInt8]?
        package var version: UInt32
    }

    /// When the application closes the link after an OTA Control write, and how long a reset
    /// then keeps the device silent (`sim:` keys `reset-delay-ms`, `boot-ms`).
    package struct Timing: Sendable, Equatable {
        package var closeDelay: Duration
        package var boot: Duration

        package init(closeDelay: Duration = .milliseconds(1000), boot: Duration = .milliseconds(500)) {
            self.closeDelay = closeDelay
            self.boot = boot
        }
    }

    package static let serviceUUID = BluetoothUUID(string: "1D14D6EE-FD63-4FA1-BFA4-8F47B42119F0")!
    package static let controlUUID = BluetoothUUID(string: "F7BF3564-FB6D-4E53-88A4-5E37E0326063")!
    package static let dataUUID = BluetoothUUID(string: "984227F3-34FC-4045-A5D0-2C581F81A153")!
    package static let appLoaderVersionUUID = BluetoothUUID(string: "4F4A2368-8CCA-451E-BFFF-CF0E2EE23E9F")!
    package static let otaVersionUUID = BluetoothUUID(string: "4CC07BCF-0868-4B32-9DAD-BA4CC41E5316")!
    package static let bootloaderVersionUUID = BluetoothUUID(string: "25F05C0A-E917-46E9-B2A5-AA2BE1245AFE")!
    package static let applicationVersionUUID = BluetoothUUID(string: "0D77CC11-4AC1-49F2-BFA9-CD96AC7A92F8")!
    /// The application's handles, then the AppLoader's: two GATT databases (AN1086).
    static let appControlHandle: UInt16 = 3
    static let appVersionHandle: UInt16 = 5
    static let loaderControlHandle: UInt16 = 12
    static let loaderDataHandle: UInt16 = 14
    static let loaderAppLoaderVersionHandle: UInt16 = 16
    static let loaderOTAVersionHandle: UInt16 = 18
    static let loaderBootloaderVersionHandle: UInt16 = 20
    static let loaderApplicationVersionHandle: UInt16 = 22
    /// AN1086's example AppLoader version "010000000000170b": 1.0.0-2839; OTA version 3; Gecko
    /// Bootloader 2.4.
    package static let appLoaderVersion: [UInt8] = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x17, 0x0B]
    package static let otaVersion: UInt8 = 3
    package static let bootloaderVersion: UInt32 = 0x0204_0000
    package static let appLoaderName = "OTA"
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's, plus `data`
    /// (each OTA Data write) and `close` (0x04).
    package static let commandNames = ["enter_ota", "begin", "data", "end", "close"]

    package let address: DeviceAddress
    package let applicationName: String
    package let timing: Timing
    package let settings: SilabsOTASettings
    package internal(set) var mode = Mode.application
    /// The application flash holds, if it would boot.
    package internal(set) var application: Application?
    package private(set) var rebootCount = 0
    /// Every OTA Control write and its answer, for tests ("begin: success").
    package private(set) var controlLog: [String] = []
    private(set) var session: AppLoaderSession
    private let capacity: Int
    private(set) var cycle = PowerCycle()
    private var commandFaults: CommandDisconnectInjector
    /// The application was asked to enter OTA mode and resets when its link ends.
    private var bootsToOTA = false
    private var busyUntil: Duration = .zero
    private let flash: FlashTiming

    package init(address: DeviceAddress, name: String = "SiLabs-App", settings: SilabsOTASettings = SilabsOTASettings(),
                capacity: Int = 0x7_0000, flash: FlashTiming = FlashTiming(), timing: Timing = Timing(),
                commandDisconnects: [CommandDisconnect] = []) {
        self.address = address
        self.applicationName = name
        self.timing = timing
        self.settings = settings
        self.capacity = capacity
        self.flash = flash
        self.application = Application(gbl: nil, version: settings.applicationVersion)
        self.session = AppLoaderSession(capacity: capacity)
        self.commandFaults = CommandDisconnectInjector(commandDisconnects)
        self.session = AppLoaderSession(capacity: capacity, rules: parserRules)
    }

    package var advertisement: Advertisement {
        Advertisement(address: address, name: mode == .application ? applicationName : Self.appLoaderName,
                      serviceUUIDs: mode == .application ? [Self.serviceUUID] : [], rssi: -42)
    }

    package var services: [GATTService] {
        let service = Self.serviceUUID
        switch mode {
        case .application:
            return [GATTService(uuid: service, characteristics: [
                GATTCharacteristic(service: service, uuid: Self.controlUUID, valueHandle: Self.appControlHandle,
                                   properties: [.write]),
                GATTCharacteristic(service: service, uuid: Self.applicationVersionUUID, valueHandle: Self.appVersionHandle,
                                   properties: [.read]),
            ])]
        case .appLoader:
            return [GATTService(uuid: service, characteristics: [
                GATTCharacteristic(service: service, uuid: Self.controlUUID, valueHandle: Self.loaderControlHandle,
                                   properties: [.write]),
                GATTCharacteristic(service: service, uuid: Self.dataUUID, valueHandle: Self.loaderDataHandle,
                                   properties: [.write, .writeWithoutResponse]),
                GATTCharacteristic(service: service, uuid: Self.appLoaderVersionUUID,
                                   valueHandle: Self.loaderAppLoaderVersionHandle, properties: [.read]),
                GATTCharacteristic(service: service, uuid: Self.otaVersionUUID, valueHandle: Self.loaderOTAVersionHandle,
                                   properties: [.read]),
                GATTCharacteristic(service: service, uuid: Self.bootloaderVersionUUID,
                                   valueHandle: Self.loaderBootloaderVersionHandle, properties: [.read]),
                GATTCharacteristic(service: service, uuid: Self.applicationVersionUUID,
                                   valueHandle: Self.loaderApplicationVersionHandle, properties: [.read]),
            ])]
        }
    }

    // MARK: - State, for tests

    /// The OTA Data bytes the AppLoader received since the last 0x00 of this boot.
    package var receivedBytes: [UInt8] { session.received }
    /// The AppLoader verified a whole image in this boot (it boots at the reset).
    package var hasVerifiedImage: Bool { session.verified }
    /// Resetting or booting: not advertising.
    package var isBooting: Bool { cycle.isBooting || cycle.isResetDue }

    // MARK: - Connection

    public func connectionStarted(mtu: Int, at time: Duration) {}

    public func connectionEnded(at time: Duration) {
        switch mode {
        case .application:
            // `sl_bt_evt_connection_closed_id` with `boot_to_dfu`: reset into the bootloader.
            guard bootsToOTA else { return }
            reset(into: .appLoader, at: time)
        case .appLoader:
            resetFromAppLoader(at: time)
        }
    }

    public func readValue(handle: UInt16) -> [UInt8]? {
        switch (mode, handle) {
        case (.application, Self.appVersionHandle): return Self.u32(application?.version ?? 0)
        case (.appLoader, Self.loaderAppLoaderVersionHandle): return Self.appLoaderVersion
        case (.appLoader, Self.loaderOTAVersionHandle): return [Self.otaVersion]
        case (.appLoader, Self.loaderBootloaderVersionHandle): return Self.u32(Self.bootloaderVersion)
        case (.appLoader, Self.loaderApplicationVersionHandle): return Self.u32(application?.version ?? 0)
        default: return nil
        }
    }

    // MARK: - Time

    public func isAdvertising(at time: Duration) -> Bool { cycle.isAdvertising }
    public var nextTimer: Duration? { cycle.deadline }

    public func fireTimers(at time: Duration) -> [PeripheralEvent] {
        switch cycle.due(at: time) {
        case .reset?:
            // The in-place OTA DFU timer: `sl_bt_connection_close`, then the reset.
            reset(into: .appLoader, at: time)
            return [.reset(reason: "the application closed the link to reboot into the AppLoader "
                               + "(\(timing.closeDelay) after the OTA Control write)")]
        case .booted?, nil:
            return []
        }
    }

    public func powerCycle(at time: Duration) {
        if mode == .appLoader {
            resetFromAppLoader(at: time)
        } else {
            reset(into: .application, at: time)
        }
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        busyUntil += offset
    }

    /// The AppLoader's boot ends (a disconnect or a power loss): the new application if verified;
    /// the old one if no program data reached flash; else the AppLoader again (no valid application).
    private func resetFromAppLoader(at time: Duration) {
        if session.verified {
            application = Application(gbl: session.received, version: session.applicationVersion ?? 0)
        } else if session.overwroteApplication {
            application = nil
        }
        reset(into: application == nil ? .appLoader : .application, at: time)
    }

    private func reset(into next: Mode, at time: Duration) {
        rebootCount += 1
        mode = next
        bootsToOTA = false
        session = AppLoaderSession(capacity: capacity, rules: parserRules)
        busyUntil = time
        cycle.rebooted(at: time, silentFor: timing.boot)
    }

    // MARK: - Writes

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard !cycle.isBooting else { return [] }
        switch (mode, handle) {
        case (.application, Self.appControlHandle):
            return commandFaults.handle(["enter_ota"], at: time) {
                // The answer goes out, then the timer closes the link and resets.
                bootsToOTA = true
                cycle.scheduleReset(at: time + timing.closeDelay, advertises: false)
                controlLog.append("enter_ota: success")
                return []  // the link sends the write response
            }
        case (.appLoader, Self.loaderControlHandle):
            let name = [0x00: "begin", 0x03: "end", 0x04: "close"][Int(value.first ?? 0xFF)] ?? "control"
            return commandFaults.handle([name], at: time) { control(value, name: name, at: time) }
        case (.appLoader, Self.loaderDataHandle):
            return commandFaults.handle(["data"], at: time) { data(value, at: time) }
        default:
            return []
        }
    }

    private func control(_ value: [UInt8], name: String, at time: Duration) -> [PeripheralOutput] {
        let answer = session.control(value)
        controlLog.append("\(name): \(answer)")
        let readyAt = max(time, busyUntil)
        if name == "end", settings.endAnswer == .lost {
            return [.linkLoss(reason: "the link dropped after the AppLoader processed 0x03 (\(answer)), before its answer "
                                  + "(end-answer=lost)", at: readyAt)]
        }
        // Success: the link sends the write response; a refusal replaces it with an ATT error.
        switch answer {
        case .success:
            return []
        case let .refused(code):
            return [PeripheralOutput(pdu: .errorResponse(code: code.rawValue, handle: Self.loaderControlHandle), readyAt: readyAt)]
        case .close:
            return [PeripheralOutput(pdu: .terminate, readyAt: readyAt, disconnectAfterSending: true,
                                     disconnectReason: "the AppLoader closed the link (OTA Control 0x04)")]
        }
    }

    /// A refused write request gets the ATT error once the flash work before it is done; a write
    /// command gets nothing (its error shows at 0x03).
    private func data(_ value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        let before = session.programmedBytes
        let answer = session.data(value)
        // Flash work as the parser writes: pages erased as writes enter them (`flashData`).
        busyUntil = max(busyUntil, time) + flash.writeCost(offset: before, count: session.programmedBytes - before)
        guard case let .refused(code) = answer else { return [] }
        return [PeripheralOutput(pdu: .errorResponse(code: code.rawValue, handle: Self.loaderDataHandle), readyAt: busyUntil)]
    }

    /// The parser's rules for this boot: the versions a dependency is checked against are the
    /// application's in flash now.
    private var parserRules: AppLoaderGBLParser.Rules {
        AppLoaderGBLParser.Rules(acceptsCompression: settings.acceptsCompression, applicationStart: settings.applicationStart,
                                 dependencyVersions: settings.checksVersionDependencies
                                     ? (application: application?.version, bootloader: Self.bootloaderVersion) : nil)
    }

    static func u32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

extension SilabsOTADevice: CommandLogging {
    package var receivedCommands: [[String]] { commandFaults.log }
}
