import DFUGATT

/// What `sim:NAME?key=value&...` asks for: which simulated device, the link settings and the
/// faults. Keys (all optional):
/// - `mtu` (23...517), `interval` (ms, 7.5...4000), `packets-per-event` (1...32),
///   `buffers` (transmit buffers, 1...256); airtime (`LinkAirtime`): `phy` (1M, 2M, coded-s2,
///   coded-s8; default 1M), `data-length` (LL data length, 27...251; default 251), `event-ms`
///   (the controller's event length, 1.25...4000 ms, at most the interval; default the
///   whole interval). `packets-per-event` caps the LL data PDUs each way per event (default 6)
/// - `address` (AA:BB:CC:DD:EE:FF), `name` (advertised name)
/// - `erase-ms` (page erase), `write-ns-per-byte` (flash write)
/// - device timing (`DeviceTiming`; each device's default models its shipped firmware):
///   `reset-delay-ms` (0...60000; vendor-ctrlpt: from handling `activate` to the reboot,
///   default 100; mcumgr-smp: from handling `reset` to the reboot, default 250 as Zephyr's
///   `CONFIG_MCUMGR_GRP_OS_RESET_MS`; silabs-ota: from the OTA Control write to the
///   application closing the link to reboot into the AppLoader, default 1000 as the in-place
///   OTA DFU component's minimum), `boot-ms` (0...600000: from the reset, after any swap
///   or bank copy, to the first advertisement: vendor-ctrlpt 500, mcumgr-smp 1000, the Nordic
///   devices 1100, dialog-suota 1000, silabs-ota 500, telink-ota 300 after its erases), `swap-ms-per-kib` (0...10000; mcumgr-smp: MCUboot's swap per KiB of
///   image; default from the flash timing, about 97 ms at the defaults)
/// - `fault` (repeatable): `disconnect-after:BYTES`, `drop-notification:N`,
///   `corrupt-notification:N`, `duplicate-notification:N`, `reorder-notification:N` (the Nth
///   notification arrives after the one that follows it), `busy:N` (the Nth command answers
///   busy; Nordic devices answer "operation failed"; dialog-suota's Nth flash write (a block
///   stored, the end command's valid flag) fails, answered EXT_MEM_WRITE_ERR; ti-oad: the Nth block write fails in flash, FLASH_ERR),
///   `unresponsive-after:BYTES`,
///   `reboot-after:BYTES` (a power glitch: RAM lost, flash kept, then the device boots and
///   advertises again), `drop-write:N` (the Nth write without response is lost on its way),
///   `corrupt-write:N` (its last byte arrives inverted), `disconnect-on:COMMAND[:N]` (the link
///   drops when the device receives the Nth request of COMMAND, default the first, before
///   processing it) and
///   `disconnect-after-command:COMMAND[:N]` (the device processes it, then the link drops
///   before the answer). Command names (`SimulatedDeviceCatalog.commandNames`): vendor-ctrlpt
///   `status start data verify activate info`; mcumgr-smp `echo reset params image_list
///   image_test image_confirm upload image_erase` (image_test / image_confirm: an image state
///   write with `confirm` false / true); nordic-secure-dfu one per opcode `protocol_version
///   create set_prn checksum execute select mtu_get ping hw_version fw_version abort`, also by
///   object type `create_command create_data select_command select_data execute_command
///   execute_data`, and the buttonless `enter_bootloader set_adv_name`; nordic-legacy-dfu
///   `start_dfu image_sizes init_start init_complete set_prn receive_firmware validate activate
///   reset report_size` (image_sizes: the packet write after start_dfu); dialog-suota
///   `memory_device gpio_map patch_length patch_data end reboot exit` (MEM_DEV writes by their
///   value: an image memory type, 0xFE, 0xFD, 0xFF; one patch_data per PATCH_DATA write); silabs-ota `enter_ota`
///   (the application's OTA Control write) `begin end close` (OTA Control 0x00, 0x03, 0x04 to
///   the AppLoader) `data` (each OTA Data write); ti-oad `identify
///   image_block` and the control opcodes `get_block_size image_count start enable cancel
///   disable_block_notifications get_sw_version get_image_status get_profile_version
///   get_device_type get_image_info erase_bonds`; telink-ota
///   `ota_version ota_start ota_data ota_end`
/// - `nordic-secure-dfu` only: `buttonless` (`0`, `1` = `unbonded`, `bonded`), `key` (path of
///   the PEM public key init packets must be signed with), `resume` (`ram`, `object`, `init`:
///   what survives a disconnect, see `SecureDFUResumePolicy`)
/// - `state` (`SimulatorStateFile.supportedDevices`): the path of a file keeping the device's memory
///   between commands (`SimulatorStateFile`)
/// - fleets (`dfukit batch run`): `fleet` (devices, 1...10000), `fault-rate` (0...1: the share
///   of devices whose first attempt fails), `faulty` (device numbers, 1-based, that fail their first
///   attempt too: `faulty=2,3,5`, for a test that needs a failure burst where it wants one), `seed`,
///   `adapter-packets` (the adapter's packets per
///   connection interval, shared by the links open at once; default 12)
/// - any device: `realtime` (a speed factor, 0.01...1000: `realtime=1` makes the virtual clock
///   follow the wall clock, `realtime=10` runs ten times faster than real time; see
///   `WallClockPacing`), so that leases, heartbeats and Ctrl-C meet simulated devices as they
///   would real ones; `journal` (a directory: every device appends what it lives through,
///   connects, disconnects, writes and activations, to `DIR/journal.log`, shared by every process
///   given the same directory; see `SimulatedDeviceJournal`)
/// - `mcumgr-smp` only: `buf-size` (largest request frame, 64...65535, default 2475),
///   `buf-count` (requests waiting at once, 1...64, default 4), `erase` (`progressive`, `slot`,
///   `none`: how slot 1 is erased, see `SMPServerSettings.EraseMode`), `smp-version` (`2`:
///   answers in the request's version; `1`: a server that only speaks the original protocol)
/// - `ti-oad` only: `image-id` (the device's OAD_IMG_ID_VAL, default `CC26x2R1`), `sw-version`
///   (the running image's softVer, default `0001`), `inactivity-ms` (4001...600000, default
///   10000: OAD_DEFAULT_INACTIVITY_TIME), `corrupt-block` (N: the flash write of block N stores
///   a wrong bit, so the device's CRC check fails), `reset-delay-ms` (enable answer to reset,
///   default 100), `bim-crc` (`passes`, default; `fails`: the off-chip BIM's CRC-32 of the image it
///   copied fails, it marks it CRC_INVALID and reverts to the factory image, so the device runs
///   the image it started with after DL_COMPLETE and `04 00`; bim_offchip_main.c), `enable-answer`
///   (`sent`, default; `lost`: the reset comes before the `04 00` notification goes out, oad.c
///   calling the application's OAD_DL_COMPLETE_EVT before it sends it; the new image then runs).
///   `07` (get_sw_version) always answers the running image's softVer
/// - `dialog-suota` only (`DialogSUOTASettings`): `corrupt-stored` (a file offset, 64 or more:
///   the flash write of that image byte stores it with bit 0 inverted; the XOR over the bytes
///   received still passes, so the end command answers CMP_OK and marks the bank valid, and the
///   secondary bootloader's CRC-32 check rejects it at the next reset: the old image runs),
///   `on-reboot` (`reset`, default; `disconnect`: the device ends the link but its
///   `user_app_on_disconnect` does not reset; `ignore`: the reboot write is answered and the
///   link stays up; either way the old image runs on and the valid new bank boots at the next
///   reset, e.g. a power cycle), `dis` (Device Information 2A26/2A28: `sdk`, default, both the
///   SDK's version string `v_6.0.18.1182.1` as the SDK 6 examples set them; `image`: 2A28 the
///   running image's header version; `none`: no Device Information service)
/// - `silabs-ota` only (`SilabsOTASettings`): `app-version` (the factory application's version,
///   u32, decimal or 0x hex, default 0x00010001; read from Application Version in the application
///   and the AppLoader), `end-answer` (`sent`, default; `lost`: every OTA Control 0x03 is
///   processed, then the link drops before its answer; a verified image boots at that
///   disconnect), `compression` (`accepted`, default; `refused`: LZ4/LZMA program tags are
///   unknown to the bootloader, 0x84), `app-start` (an address, decimal or 0x hex: program data
///   below it is refused, 0x87; default not checked), `version-dependency` (`skipped`, default;
///   `checked`: version dependency tags are evaluated against the application's and the
///   bootloader's versions, an unmet one refused, 0x84). Each refusal comes before any program
///   data is written: the old application stays and boots at the next reset
/// - `telink-ota` only (`TelinkOTAServerSettings`; defaults are the Telink SDK's):
///   `firmware-revision` (what Device Information 2A26 reports before an update, default
///   `1.0.0`), `firmware-check` (`1`: the image's CRC-32 trailer is checked, `0`: not),
///   `min-size` (smallest image accepted, bytes, default 16384), `ota-timeout-s` (the whole OTA,
///   5...1000, default 30), `packet-timeout-s` (between data packets, 1...20, default 5),
///   `result-feedback` (`1`: the server notifies its result, `06 FF <result> 00`, to a subscribed
///   client before it ends the link, as the B85m/B91 SDKs' ota_server.c from 2020.06 does; default
///   `0`: an older server that notifies nothing)
public struct SimulatorConfiguration: Sendable {
    /// The simulated device: one of `SimulatedDeviceCatalog.names`.
    public var deviceName: String
    /// The link's timing (`mtu`, `interval`, `phy`, `data-length`...).
    public var link = LinkSettings()
    /// The faults to inject (`fault=`, `disconnect-on:`...).
    public var faults = FaultPlan()
    /// The device's flash timing (`erase-ms`, `write-ns-per-byte`).
    public var flash = FlashTiming()
    /// Reset delay, boot time and swap speed; nil fields keep the device's defaults.
    public var timing = DeviceTiming()
    /// The device's address (`address`); with a fleet, the first device's.
    public var address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    package var advertisedName: String?
    /// Nordic Secure DFU: start as an application with the buttonless service.
    public var buttonless: ButtonlessMode?
    /// Nordic Secure DFU: the key init packets must be signed with.
    package var publicKey: SimulatorPublicKey?
    /// Nordic Secure DFU: what survives a disconnect.
    package var resumePolicy: SecureDFUResumePolicy = .ram
    /// MCUmgr SMP: buffers, erase mode and protocol version (flash timing and `busy` faults
    /// come from `flash` and `faults`).
    package var smpServer = SMPServerSettings()
    /// TI OAD: the device's imgID and software version, its inactivity timeout, a flash fault,
    /// its BIM and the enable answer.
    public var tiOAD = TIOADSettings()
    /// Dialog SUOTA: flash corruption the XOR cannot see, the reboot command, Device Information.
    package var dialogSUOTA = DialogSUOTASettings()
    /// Silicon Labs OTA: the application's version, the answer to 0x03, the AppLoader's checks.
    package var silabsOTA = SilabsOTASettings()
    /// Telink OTA: how the application configured its OTA server.
    package var telinkServer = TelinkOTAServerSettings()
    /// Telink OTA: the Firmware Revision String the device reports before an update.
    package var firmwareRevision: String?
    /// Fleets (`dfukit batch run`): how many devices, the share of them that fail their first
    /// attempt, the seed choosing them, and the adapter's packets per connection interval
    /// shared by every open link.
    public var fleet = 1
    package var faultRate = 0.0
    /// `faulty=2,3,5`: fleet devices (numbered from 1) that fail their first attempt, besides
    /// those `fault-rate` picks.
    package var faultyDevices: Set<Int> = []
    /// The seed choosing which fleet devices fail (`seed`).
    public var seed: UInt64 = 1
    /// LL packets per connection interval the simulated adapter shares among every open link.
    public var adapterPackets = 12
    /// `realtime=SPEED`: the virtual clock follows the wall clock, SPEED times faster; nil: it
    /// runs as fast as the CPU allows.
    public var pacing: WallClockPacing?
    /// `journal=DIR`: where the devices write their journal; nil: they keep none.
    package var journalDirectory: String?
    /// `state=FILE`: where the device's memory is kept between commands.
    public var stateFile: String?
    /// Keys given that only some devices understand, for the catalog to check.
    package private(set) var deviceSpecificKeys: [String] = []

    /// The devices each device-specific key belongs to.
    package static let deviceSpecificKeyOwners: [String: [String]] = [
        "buttonless": ["nordic-secure-dfu"], "key": ["nordic-secure-dfu"], "resume": ["nordic-secure-dfu"],
        "buf-size": ["mcumgr-smp"], "buf-count": ["mcumgr-smp"], "erase": ["mcumgr-smp"], "smp-version": ["mcumgr-smp"],
        "reset-delay-ms": ["vendor-ctrlpt", "mcumgr-smp", "silabs-ota", "ti-oad"], "swap-ms-per-kib": ["mcumgr-smp"],
        "image-id": ["ti-oad"], "sw-version": ["ti-oad"], "inactivity-ms": ["ti-oad"], "corrupt-block": ["ti-oad"],
        "firmware-revision": ["telink-ota"], "firmware-check": ["telink-ota"], "min-size": ["telink-ota"],
        "ota-timeout-s": ["telink-ota"], "packet-timeout-s": ["telink-ota"], "result-feedback": ["telink-ota"],
        "bim-crc": ["ti-oad"], "enable-answer": ["ti-oad"],
        "corrupt-stored": ["dialog-suota"], "on-reboot": ["dialog-suota"], "dis": ["dialog-suota"],
        "app-version": ["silabs-ota"], "end-answer": ["silabs-ota"], "compression": ["silabs-ota"],
        "app-start": ["silabs-ota"], "version-dependency": ["silabs-ota"],
        "state": SimulatorStateFile.supportedDevices,
    ]

    /// The configuration of one `deviceName` device with every default.
    public init(deviceName: String) {
        self.deviceName = deviceName
    }

    /// Parses the part after `sim:`.
    public init(parsing text: String) throws(SimulatorConfigurationError) {
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard !name.isEmpty else { throw SimulatorConfigurationError("sim: needs a device name, e.g. sim:vendor-ctrlpt") }
        self.init(deviceName: name)
        guard parts.count == 2 else { return }
        for pair in parts[1].split(separator: "&") where !pair.isEmpty {
            let keyValue = pair.split(separator: "=", maxSplits: 1)
            guard keyValue.count == 2 else { throw SimulatorConfigurationError("'\(pair)' is not key=value") }
            try apply(key: String(keyValue[0]), value: String(keyValue[1]))
        }
    }

    private mutating func apply(key: String, value: String) throws(SimulatorConfigurationError) {
        switch key {
        case "mtu": link.mtu = try integer(value, key: key, in: 23...517)
        case "interval":
            guard let milliseconds = Double(value), milliseconds >= 7.5, milliseconds <= 4000 else {
                throw SimulatorConfigurationError("interval must be milliseconds between 7.5 and 4000, not '\(value)'")
            }
            link.connectionInterval = .microseconds(Int64(milliseconds * 1000))
        case "packets-per-event": link.packetsPerEvent = try integer(value, key: key, in: 1...32)
        case "phy":
            guard let phy = LinkPHY(rawValue: value) else {
                throw SimulatorConfigurationError("phy must be one of 1M, 2M, coded-s2, coded-s8, not '\(value)'")
            }
            link.phy = phy
        case "data-length": link.dataLength = try integer(value, key: key, in: 27...251)
        case "event-ms":
            guard let milliseconds = Double(value), milliseconds >= 1.25, milliseconds <= 4000 else {
                throw SimulatorConfigurationError("event-ms must be milliseconds between 1.25 and 4000, not '\(value)'")
            }
            link.eventLength = .microseconds(Int64(milliseconds * 1000))
        case "buffers": link.transmitBuffers = try integer(value, key: key, in: 1...256)
        case "address":
            guard let parsed = DeviceAddress(string: value) else {
                throw SimulatorConfigurationError("address must look like C0:FF:EE:00:00:01, not '\(value)'")
            }
            address = parsed
        case "name": advertisedName = value
        case "erase-ms": flash.pageErase = .milliseconds(try integer(value, key: key, in: 0...10_000))
        case "write-ns-per-byte": flash.writePerByte = .nanoseconds(try integer(value, key: key, in: 0...1_000_000))
        case "fault": try applyFault(value)
        case "reset-delay-ms":
            timing.resetDelay = .milliseconds(try integer(value, key: key, in: 0...60_000))
            deviceSpecificKeys.append(key)
        case "boot-ms": timing.boot = .milliseconds(try integer(value, key: key, in: 0...600_000))
        case "swap-ms-per-kib":
            timing.swapPerKiB = .milliseconds(try integer(value, key: key, in: 0...10_000))
            deviceSpecificKeys.append(key)
        case "buttonless":
            switch value {
            case "0": buttonless = nil
            case "1", "unbonded": buttonless = .unbonded
            case "bonded": buttonless = .bonded
            default:
                throw SimulatorConfigurationError("buttonless must be 0, 1 (or unbonded) or bonded, not '\(value)'")
            }
            deviceSpecificKeys.append(key)
        case "key":
            publicKey = try SimulatorPublicKey(contentsOf: value)
            deviceSpecificKeys.append(key)
        case "resume":
            guard let policy = SecureDFUResumePolicy(rawValue: value) else {
                throw SimulatorConfigurationError("resume must be ram, object or init, not '\(value)'")
            }
            resumePolicy = policy
            deviceSpecificKeys.append(key)
        case "buf-size":
            smpServer.bufferSize = try integer(value, key: key, in: 64...65_535)
            deviceSpecificKeys.append(key)
        case "buf-count":
            smpServer.bufferCount = try integer(value, key: key, in: 1...64)
            deviceSpecificKeys.append(key)
        case "erase":
            guard let mode = SMPServerSettings.EraseMode(rawValue: value) else {
                throw SimulatorConfigurationError("erase must be progressive, slot or none, not '\(value)'")
            }
            smpServer.eraseMode = mode
            deviceSpecificKeys.append(key)
        case "smp-version":
            guard value == "1" || value == "2" else {
                throw SimulatorConfigurationError("smp-version must be 1 or 2, not '\(value)'")
            }
            smpServer.protocolVersion = value == "1" ? 1 : 2
            deviceSpecificKeys.append(key)
        case "image-id":
            guard !value.isEmpty, value.utf8.count <= 8, value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw SimulatorConfigurationError("image-id must be 1 to 8 printable ASCII characters (CC26x2R1), not '\(value)'")
            }
            tiOAD.imageID = value
            deviceSpecificKeys.append(key)
        case "sw-version":
            guard value.utf8.count == 4, value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw SimulatorConfigurationError("sw-version must be 4 printable ASCII characters (0001), not '\(value)'")
            }
            tiOAD.softwareVersion = value
            deviceSpecificKeys.append(key)
        case "inactivity-ms":
            tiOAD.inactivity = .milliseconds(try integer(value, key: key + " (OAD_open ignores 4000 or less)", in: 4001...600_000))
            deviceSpecificKeys.append(key)
        case "corrupt-block":
            tiOAD.corruptBlock = try integer(value, key: key, in: 0...Int(Int32.max))
            deviceSpecificKeys.append(key)
        case "firmware-revision":
            guard !value.isEmpty, value.utf8.count <= 64 else {
                throw SimulatorConfigurationError("firmware-revision must be 1 to 64 characters, not '\(value)'")
            }
            firmwareRevision = value
            deviceSpecificKeys.append(key)
        case "firmware-check":
            guard value == "0" || value == "1" else {
                throw SimulatorConfigurationError("firmware-check must be 0 or 1, not '\(value)'")
            }
            telinkServer.firmwareCheck = value == "1"
            deviceSpecificKeys.append(key)
        case "min-size":
            telinkServer.minimumImageSize = try integer(value, key: key, in: 0...telinkServer.maximumImageSize)
            deviceSpecificKeys.append(key)
        case "ota-timeout-s":
            telinkServer.processTimeout = .seconds(try integer(value, key: key, in: 5...1000))
            deviceSpecificKeys.append(key)
        case "packet-timeout-s":
            telinkServer.packetTimeout = .seconds(try integer(value, key: key, in: 1...20))
            deviceSpecificKeys.append(key)
        case "result-feedback":
            guard value == "0" || value == "1" else {
                throw SimulatorConfigurationError("result-feedback must be 0 or 1, not '\(value)'")
            }
            telinkServer.resultFeedback = value == "1"
            deviceSpecificKeys.append(key)
        case "bim-crc", "enable-answer": try applyTIOAD(key: key, value: value)
        case "corrupt-stored", "on-reboot", "dis": try applyDialogSUOTA(key: key, value: value)
        case "app-version", "end-answer", "compression", "app-start", "version-dependency":
            try applySilabsOTA(key: key, value: value)
        case "state": try applyStateFile(value)
        case "fleet": fleet = try integer(value, key: key, in: 1...10_000)
        case "fault-rate":
            guard let rate = Double(value), rate >= 0, rate <= 1 else {
                throw SimulatorConfigurationError("fault-rate must be a number between 0 and 1, not '\(value)'")
            }
            faultRate = rate
        case "faulty":
            var numbers: Set<Int> = []
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = Int(item), number >= 1, number <= 10_000 else {
                    throw SimulatorConfigurationError("faulty must list device numbers from 1 (the fleet's first device), "
                                                          + "e.g. faulty=2,3,5, not '\(value)'")
                }
                numbers.insert(number)
            }
            faultyDevices = numbers
        case "seed": seed = UInt64(try integer(value, key: key, in: 0...Int(Int32.max)))
        case "adapter-packets": adapterPackets = try integer(value, key: key, in: 1...64)
        case "realtime":
            guard let speed = Double(value), speed >= 0.01, speed <= 1000 else {
                throw SimulatorConfigurationError("realtime must be a speed factor between 0.01 and 1000 (1: real time, "
                                                      + "10: ten times faster), not '\(value)'")
            }
            pacing = WallClockPacing(speed: speed)
        case "journal":
            guard !value.isEmpty else { throw SimulatorConfigurationError("journal needs a directory, e.g. journal=/tmp/fleet") }
            journalDirectory = value
        default:
            throw SimulatorConfigurationError(
                "unknown key '\(key)' (known: mtu, interval, packets-per-event, phy, data-length, event-ms, buffers, address, name, erase-ms, "
                    + "write-ns-per-byte, reset-delay-ms, boot-ms, swap-ms-per-kib, fault, buttonless, key, resume, "
                    + "buf-size, buf-count, erase, smp-version, image-id, sw-version, inactivity-ms, corrupt-block, "
                    + "firmware-revision, firmware-check, min-size, ota-timeout-s, packet-timeout-s, result-feedback, "
                    + "bim-crc, enable-answer, corrupt-stored, on-reboot, dis, app-version, end-answer, compression, "
                    + "app-start, version-dependency, "
                    + "state, fleet, fault-rate, faulty, seed, adapter-packets, realtime, journal)")
        }
    }

    private mutating func applyTIOAD(key: String, value: String) throws(SimulatorConfigurationError) {
        switch key {
        case "bim-crc": tiOAD.bimCRCFails = try choice(value, key: key, ["passes": false, "fails": true])
        default: tiOAD.enableAnswerLost = try choice(value, key: key, ["sent": false, "lost": true])
        }
        deviceSpecificKeys.append(key)
    }

    private mutating func applyDialogSUOTA(key: String, value: String) throws(SimulatorConfigurationError) {
        switch key {
        case "corrupt-stored":
            dialogSUOTA.corruptStoredOffset = try integer(value, key: key + " (a file offset in the code, after the 64-byte header)",
                                                          in: 64...Int(Int32.max))
        case "on-reboot":
            dialogSUOTA.onReboot = try choice(value, key: key, Dictionary(uniqueKeysWithValues:
                DialogSUOTASettings.RebootBehaviour.allCases.map { ($0.rawValue, $0) }))
        default:
            dialogSUOTA.deviceInformation = try choice(value, key: key, Dictionary(uniqueKeysWithValues:
                DialogSUOTASettings.DeviceInformation.allCases.map { ($0.rawValue, $0) }))
        }
        deviceSpecificKeys.append(key)
    }

    private mutating func applySilabsOTA(key: String, value: String) throws(SimulatorConfigurationError) {
        switch key {
        case "app-version": silabsOTA.applicationVersion = try u32(value, key: key)
        case "end-answer":
            silabsOTA.endAnswer = try choice(value, key: key, Dictionary(uniqueKeysWithValues:
                SilabsOTASettings.EndAnswer.allCases.map { ($0.rawValue, $0) }))
        case "compression": silabsOTA.acceptsCompression = try choice(value, key: key, ["accepted": true, "refused": false])
        case "app-start": silabsOTA.applicationStart = try u32(value, key: key)
        default: silabsOTA.checksVersionDependencies = try choice(value, key: key, ["skipped": false, "checked": true])
        }
        deviceSpecificKeys.append(key)
    }

    /// One of `choices` by its spelling; the error lists them.
    private func choice<Value>(_ value: String, key: String, _ choices: [String: Value]) throws(SimulatorConfigurationError) -> Value {
        guard let chosen = choices[value] else {
            throw SimulatorConfigurationError("\(key) must be one of \(choices.keys.sorted().joined(separator: ", ")), not '\(value)'")
        }
        return chosen
    }

    /// A u32 written in decimal or as 0x hex.
    private func u32(_ text: String, key: String) throws(SimulatorConfigurationError) -> UInt32 {
        let parsed = text.lowercased().hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text)
        guard let parsed else {
            throw SimulatorConfigurationError("\(key) must be a 32-bit number, decimal or 0x hex (0x00010001), not '\(text)'")
        }
        return parsed
    }

    private mutating func applyStateFile(_ value: String) throws(SimulatorConfigurationError) {
        guard !value.isEmpty else { throw SimulatorConfigurationError("state needs a file path, e.g. state=/tmp/smp.json") }
        stateFile = value
        deviceSpecificKeys.append("state")
    }

    private mutating func applyFault(_ value: String) throws(SimulatorConfigurationError) {
        let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw SimulatorConfigurationError("a fault is KIND:NUMBER, e.g. disconnect-after:40000, not '\(value)'")
        }
        if let moment = CommandDisconnect.Moment(rawValue: String(parts[0])) {
            faults.commandDisconnects.append(try commandDisconnect(String(parts[1]), moment: moment))
            return
        }
        let count = try integer(String(parts[1]), key: "fault \(parts[0])", in: 1...Int(Int32.max))
        switch parts[0] {
        case "disconnect-after": faults.disconnectAfterBytes.append(count)
        case "drop-notification": faults.dropNotifications.insert(count)
        case "corrupt-notification": faults.corruptNotifications.insert(count)
        case "duplicate-notification": faults.duplicateNotifications.insert(count)
        case "reorder-notification": faults.reorderNotifications.insert(count)
        case "busy": faults.busyCommands.insert(count)
        case "unresponsive-after": faults.unresponsiveAfterBytes = count
        case "reboot-after": faults.rebootAfterBytes.append(count)
        case "drop-write": faults.dropWrites.insert(count)
        case "corrupt-write": faults.corruptWrites.insert(count)
        default:
            throw SimulatorConfigurationError(
                "unknown fault '\(parts[0])' (known: disconnect-after, drop-notification, corrupt-notification, "
                    + "duplicate-notification, reorder-notification, busy, unresponsive-after, reboot-after, "
                    + "drop-write, corrupt-write, disconnect-on, disconnect-after-command)")
        }
    }

    /// `COMMAND[:N]` of a command fault; the catalog checks the name against the device's commands.
    private func commandDisconnect(_ text: String, moment: CommandDisconnect.Moment) throws(SimulatorConfigurationError) -> CommandDisconnect {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty, parts.count <= 2 else {
            throw SimulatorConfigurationError("fault \(moment.rawValue) is \(moment.rawValue):COMMAND[:N], e.g. "
                                                  + "\(moment.rawValue):verify:2, not '\(moment.rawValue):\(text)'")
        }
        let occurrence = parts.count == 2
            ? try integer(String(parts[1]), key: "fault \(moment.rawValue) \(name)", in: 1...Int(Int32.max)) : 1
        return CommandDisconnect(command: String(name), occurrence: occurrence, moment: moment)
    }

    private func integer(_ text: String, key: String, in range: ClosedRange<Int>) throws(SimulatorConfigurationError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw SimulatorConfigurationError("\(key) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return value
    }
}

/// A `sim:` text that cannot be used: an unknown device, key or value, or keys that do not go
/// together. The message names the key and what it accepts.
public struct SimulatorConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// An error that says `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { "sim: \(message)" }
}
