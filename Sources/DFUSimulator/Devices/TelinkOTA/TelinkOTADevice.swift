import DFUBytes
import DFUGATT

/// A Telink BLE application with the SDK's OTA server (`sim:telink-ota`), as the B85/B87 SDK
/// runs it (`ota_server.c`, ota.h; research/telink-ota.md). fwupd's telink-dfu plugin updates
/// such devices (8208 keyboard, 8266 mouse).
///
/// GATT: the OTA service 00010203-0405-0607-0809-0A0B0C0D1912 with one characteristic
/// ...2B12 (read, write without response, notify, as newer SDK samples declare it; value handle
/// 3, CCCD 4; a read gives `00`), and Device Information 180A with the Firmware Revision String
/// 2A26 (handle 7), which reports the running firmware's version (`TelinkSimulatedFirmware`).
/// It advertises its name and the OTA service.
///
/// The protocol is `TelinkOTAServer`. What the device does around it:
/// - Nothing is acknowledged, and nothing is dropped: every write is handled as it arrives (the
///   server runs in the ATT write handler; the link layer acknowledges only what it took).
/// - When the OTA ends (an error, the end command, a timeout) the device notifies `06 FF
///   <result> 00` if the client subscribed and the server is a newer one (`result-feedback=1`),
///   then ends the link (LL terminate, 0x13) (`blt_ota_procOtaResultFeedback`). With the link gone it finishes
///   (`blt_ota_procOtaFinish`): on success it writes the boot mark and reboots into the new
///   image, which at its first boot erases the old one's area (`bls_ota_clearNewFwDataArea`,
///   before advertising); on failure it erases the sectors the OTA wrote and reboots into the
///   old image (nothing written: no reboot). Silent meanwhile: erase time (`erase-ms` per 4 KiB
///   sector) plus `boot-ms` (default 300 ms: assumed, the SDK gives no figure).
/// - A link lost during an OTA leaves it running (the server's disconnect callback does nothing
///   before a result): it ends by the packet timeout (5 s) or the whole-OTA timeout (30 s),
///   then, with no link to end, after the 4 s feedback timeout; a start sent meanwhile gets
///   `OTA_FLOW_ERR` (and ends the link). No resume: every OTA starts from packet 0.
/// - A power glitch loses the OTA; the area is erased at boot.
package final class TelinkOTADevice: SimulatedPeripheral {
    package static let serviceUUID = BluetoothUUID(string: "00010203-0405-0607-0809-0A0B0C0D1912")!
    package static let otaUUID = BluetoothUUID(string: "00010203-0405-0607-0809-0A0B0C0D2B12")!
    package static let deviceInformationUUID = BluetoothUUID(string: "180A")!
    package static let firmwareRevisionUUID = BluetoothUUID(string: "2A26")!
    package static let otaHandle: UInt16 = 3
    static let otaConfigurationHandle: UInt16 = 4
    package static let firmwareRevisionHandle: UInt16 = 7
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's.
    package static let commandNames = ["ota_version", "ota_start", "ota_data", "ota_end"]
    /// LL terminate reason of the link the device ends (`HCI_ERR_REMOTE_USER_TERM_CONN`).
    static let terminateReason = "the device ended the link (0x13)"

    package let advertisement: Advertisement
    package let settings: TelinkOTAServerSettings
    package let flash: FlashTiming
    package let bootTime: Duration
    private(set) var server: TelinkOTAServer
    package internal(set) var running: TelinkSimulatedFirmware
    /// The image a successful OTA chose, until the device runs it.
    package private(set) var pendingImage: [UInt8]?
    /// Every OTA result, in order.
    package private(set) var results: [TelinkOTAResult] = []
    package private(set) var rebootCount = 0
    private(set) var cycle = PowerCycle()
    private var isConnected = false
    private var subscribed = false
    private var commandFaults: CommandDisconnectInjector

    package init(address: DeviceAddress, name: String = "Telink-OTA", firmwareRevision: String = "1.0.0",
                settings: TelinkOTAServerSettings = TelinkOTAServerSettings(), flash: FlashTiming = FlashTiming(),
                bootTime: Duration = .milliseconds(300), commandDisconnects: [CommandDisconnect] = []) {
        self.advertisement = Advertisement(address: address, name: name, serviceUUIDs: [Self.serviceUUID], rssi: -42)
        self.settings = settings
        self.flash = flash
        self.bootTime = bootTime
        self.server = TelinkOTAServer(settings: settings)
        self.running = TelinkSimulatedFirmware(image: nil, revision: firmwareRevision)
        self.commandFaults = CommandDisconnectInjector(commandDisconnects)
    }

    package var services: [GATTService] {
        [GATTService(uuid: Self.serviceUUID, characteristics: [
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.otaUUID, valueHandle: Self.otaHandle,
                               properties: [.read, .writeWithoutResponse, .notify]),
        ]), GATTService(uuid: Self.deviceInformationUUID, characteristics: [
            GATTCharacteristic(service: Self.deviceInformationUUID, uuid: Self.firmwareRevisionUUID,
                               valueHandle: Self.firmwareRevisionHandle, properties: [.read]),
        ])]
    }

    // MARK: - State, for tests

    /// Bytes of the OTA under way (16 per packet taken), or of the image an ended OTA took.
    package var receivedBytes: [UInt8] { server.receivedBytes }
    /// Whether an OTA is under way (started, not ended).
    package var isReceiving: Bool {
        if case .receiving = server.step { return true }
        return false
    }
    package var isBooting: Bool { cycle.isBooting }

    // MARK: - Connection

    public func connectionStarted(mtu: Int, at time: Duration) {
        isConnected = true
        subscribed = false
    }

    public func connectionEnded(at time: Duration) {
        isConnected = false
        subscribed = false
        // blt_ota_server_terminate: an ended OTA finishes now; one under way goes on.
        if case .ended = server.step { finish(at: time) }
    }

    public func readValue(handle: UInt16) -> [UInt8]? {
        switch handle {
        case Self.otaHandle: return [0x00]
        case Self.otaConfigurationHandle: return [subscribed ? 0x01 : 0x00, 0x00]
        case Self.firmwareRevisionHandle: return Array(running.revision.utf8)
        default: return nil
        }
    }

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard !cycle.isBooting else { return [] }
        if handle == Self.otaConfigurationHandle {
            subscribed = (value.first ?? 0) & 0x01 != 0
            return []
        }
        guard handle == Self.otaHandle else { return [] }
        return commandFaults.handle(Self.commandNames(of: value), at: time) {
            guard let result = server.write(value, at: time) else { return [] }
            return ended(with: result, at: time)
        }
    }

    /// The profile's name of a write, for command faults.
    static func commandNames(of value: [UInt8]) -> [String] {
        guard value.count >= 2 else { return [] }
        switch TelinkOTACommand(rawValue: UInt16(value[0]) | UInt16(value[1]) << 8) {
        case .version: return ["ota_version"]
        case .start: return ["ota_start"]
        case .end: return ["ota_end"]
        case let code where !code.isCommand: return ["ota_data"]
        default: return []
        }
    }

    /// The OTA ended on a write: the result notification (`result-feedback=1`, if subscribed),
    /// then the terminate. ota_server.c `blt_ota_procOtaResultFeedback`: the result is pushed with
    /// `blc_gatt_pushHandleValueNotify` on the OTA characteristic, and only once it is queued
    /// does the server ask for the terminate (`DATA_PENDING_TERMINATE_CMD`), so the client gets it
    /// first.
    private func ended(with result: TelinkOTAResult, at time: Duration) -> [PeripheralOutput] {
        results.append(result)
        var outputs: [PeripheralOutput] = []
        if subscribed, settings.resultFeedback {
            outputs.append(PeripheralOutput(pdu: .notification(handle: Self.otaHandle,
                                                               value: TelinkOTAResultNotification(result: result).bytes),
                                            readyAt: time))
        }
        outputs.append(PeripheralOutput(pdu: .terminate, readyAt: time, disconnectAfterSending: true,
                                        disconnectReason: "\(Self.terminateReason) after the OTA ended with \(result)"))
        return outputs
    }

    // MARK: - Time

    public func isAdvertising(at time: Duration) -> Bool { cycle.isAdvertising }

    public var nextTimer: Duration? {
        let feedback = isConnected ? nil : server.feedbackDeadline
        return [cycle.deadline, cycle.isBooting ? nil : server.deadline, feedback].compactMap { $0 }.min()
    }

    public func fireTimers(at time: Duration) -> [PeripheralEvent] {
        if cycle.due(at: time) == .booted {
            if let image = pendingImage {
                running = TelinkSimulatedFirmware(running: image)
                pendingImage = nil
            }
            return []
        }
        if let result = server.expire(at: time) {
            results.append(result)
            guard isConnected else { return [] }  // no link to end: the feedback timeout finishes it
            isConnected = false
            subscribed = false
            finish(at: time)
            return [.reset(reason: "\(Self.terminateReason) after the OTA ended with \(result)")]
        }
        if !isConnected, let due = server.feedbackDeadline, due <= time { finish(at: time) }
        return []
    }

    public func powerCycle(at time: Duration) {
        let written = server.receivedBytes.count
        server.reset()
        pendingImage = nil
        reboot(at: time, silentFor: erase(written) + bootTime)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        server.shift(by: offset)
    }

    /// `blt_ota_procOtaFinish`.
    private func finish(at time: Duration) {
        guard let ending = server.finish() else { return }
        if ending.result == .success, let image = ending.image {
            // The boot mark (0x4B at offset 8, 0 over the old one), the reboot; the new image's
            // first boot erases the old image's area before it advertises.
            pendingImage = image
            let oldArea = running.image?.count ?? image.count
            reboot(at: time, silentFor: flash.writePerByte * 2 + erase(oldArea) + bootTime)
        } else if ending.bytesWritten > 0 {
            reboot(at: time, silentFor: erase(ending.bytesWritten) + bootTime)
        }
    }

    /// Erasing the 4 KiB sectors `count` bytes from the area's start span.
    private func erase(_ count: Int) -> Duration {
        flash.pageErase * ((count + flash.pageSize - 1) / flash.pageSize)
    }

    private func reboot(at time: Duration, silentFor silence: Duration) {
        rebootCount += 1
        subscribed = false
        cycle.rebooted(at: time, silentFor: silence)
    }
}

extension TelinkOTADevice: CommandLogging {
    package var receivedCommands: [[String]] { commandFaults.log }
}
