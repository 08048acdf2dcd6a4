import DFUBytes
import DFUPackage

/// One notification the bootloader sends: its bytes, when it is ready to leave, and whether the
/// bootloader then leaves DFU mode (ends the link and resets).
struct SecureDFUReply: Equatable, Sendable {
    /// How the bootloader resets after a reply.
    enum Reset: Equatable, Sendable {
        /// The last data object was executed (validated or not): the settings are written and
        /// backed up first (`nrf_dfu_settings_write_and_backup(on_dfu_complete)`).
        case afterUpdate
        /// ABORT: no settings to write.
        case abort
    }

    var bytes: [UInt8]
    var readyAt: Duration
    var reset: Reset?
}

/// The request handling of an nRF5 SDK 15+ Secure DFU bootloader as a pure state machine: bytes
/// in (control point or packet writes, with the time they arrived), replies out. It follows
/// nrf_dfu_req_handler.c, nrf_dfu_validation.c and the BLE transport nrf_dfu_ble.c:
///
/// - Objects: command (the init packet, at most 512 bytes) and data (at most 4096 bytes per
///   object). The CRC32 runs over each object type's whole stream.
/// - CREATE of a command object resets all progress; CREATE of a data object rolls offset and
///   CRC back to the last executed object and erases the object's pages.
/// - A packet write that overflows the current object is dropped (no answer).
/// - EXECUTE of the command object validates the init packet; EXECUTE of a data object needs
///   exactly the created size; the last one post-validates the SHA-256, answers, and resets.
/// - A packet receipt notification follows every PRN-th packet write, the last packet of an
///   object included: `ble_dfu_req_handler_callback` (nrf_dfu_ble.c, SDK 15.0-17.1) counts
///   every accepted write and never asks whether it ended the object.
/// - The inactivity timer (`NRF_BL_DFU_INACTIVITY_TIMEOUT_MS`, 120 s; nrf_bootloader.c
///   `dfu_observer`) restarts on DFU_STARTED (CREATE of a command object) and
///   OBJECT_RECEIVED (EXECUTE of a data object); the device resets when it runs out.
/// - Timing: answers leave at once, except EXECUTE of a data object, which waits until the
///   flash queue (erases from CREATE, writes as data arrives, the hash of the image) is drained,
///   as `on_data_obj_execute_request_sched` waits for fstorage.
struct SecureDFUBootloader {
    static let commandObjectMaxSize = 512
    static let dataObjectMaxSize = 4096

    var validator: SecureDFUInitValidator
    var flash: FlashTiming
    var resumePolicy: SecureDFUResumePolicy
    /// Control-point commands (1-based count) answered "operation failed" (a fault).
    var failingCommands: Set<Int>

    private(set) var progress = SecureDFUProgress()
    /// The settings page as last written to flash: what a reset (or, from SDK 16, a
    /// disconnect) goes back to.
    private(set) var flashSettings = SecureDFUProgress()
    /// The firmware bank; bytes beyond `progress.offset` are stale.
    private(set) var bank: [UInt8] = []
    private(set) var installedVersions = SecureDFUInitValidator.InstalledVersions()
    /// Images post-validated and set to be activated at the next reset, oldest first.
    private(set) var installed: [NordicInstalledImage] = []
    private(set) var commandLog: [SecureDFUOpcode] = []
    /// When the inactivity timer was last restarted.
    private(set) var inactivityRestartedAt: Duration = .zero
    private var currentObject = SecureDFUObjectType.command
    private var receiptTarget = 0
    private var receiptCountdown = 0
    private var flashIdleAt: Duration = .zero

    init(validator: SecureDFUInitValidator, flash: FlashTiming, resumePolicy: SecureDFUResumePolicy,
         failingCommands: Set<Int>) {
        self.validator = validator
        self.flash = flash
        self.resumePolicy = resumePolicy
        self.failingCommands = failingCommands
    }

    /// The image of the current transfer received so far.
    var receivedFirmware: [UInt8] { Array(bank.prefix(progress.offset)) }

    // MARK: - Connection and reset

    mutating func connectionStarted() {
        receiptCountdown = receiptTarget
    }

    /// The BLE transport went down. From SDK 16 the bootloader reloads its settings from flash
    /// (`NRF_DFU_EVT_TRANSPORT_DEACTIVATED` -> `nrf_dfu_settings_reinit`).
    mutating func connectionEnded() {
        if resumePolicy != .ram { progress = flashSettings }
    }

    /// A reset: RAM is lost, the settings come back from flash; DFU mode (re)starts at `time`.
    mutating func reset(at time: Duration) {
        progress = flashSettings
        currentObject = .command
        receiptTarget = 0
        receiptCountdown = 0
        flashIdleAt = time
        inactivityRestartedAt = time
    }

    /// A new world's clock.
    mutating func shiftClock(by offset: Duration) {
        flashIdleAt += offset
        inactivityRestartedAt += offset
    }

    /// The names a control-point write answers to for command faults.
    func commandNames(controlPoint value: [UInt8]) -> [String] {
        guard let first = value.first else { return [] }
        let type = value.count >= 2 ? SecureDFUObjectType(rawValue: value[1]) : .invalid
        func typed(_ name: String, _ type: SecureDFUObjectType) -> [String] {
            switch type {
            case .command: return [name, name + "_command"]
            case .data: return [name, name + "_data"]
            default: return [name]
            }
        }
        switch SecureDFUOpcode(rawValue: first) {
        case .protocolVersion: return ["protocol_version"]
        case .createObject: return typed("create", type)
        case .setReceiptNotification: return ["set_prn"]
        case .calculateChecksum: return ["checksum"]
        case .execute: return typed("execute", currentObject)
        case .selectObject: return typed("select", type)
        case .mtuGet: return ["mtu_get"]
        case .ping: return ["ping"]
        case .hardwareVersion: return ["hw_version"]
        case .firmwareVersion: return ["fw_version"]
        case .abort: return ["abort"]
        default: return []
        }
    }

    // MARK: - Control point

    mutating func controlPoint(_ value: [UInt8], at time: Duration) -> [SecureDFUReply] {
        guard let first = value.first else { return [] }
        let opcode = SecureDFUOpcode(rawValue: first)
        commandLog.append(opcode)
        func reply(_ outcome: SecureDFUOutcome = .success, _ parameters: [UInt32] = [],
                   readyAt: Duration = time, reset: SecureDFUReply.Reset? = nil) -> [SecureDFUReply] {
            [SecureDFUReply(bytes: SecureDFUResponse(opcode, outcome, parameters: parameters).bytes,
                            readyAt: readyAt, reset: reset)]
        }
        if failingCommands.contains(commandLog.count) { return reply(.result(.operationFailed)) }
        var reader = ByteReader(value)
        _ = try? reader.readByte()

        switch opcode {
        case .protocolVersion, .mtuGet, .ping, .hardwareVersion, .firmwareVersion:
            return reply()
        case .abort:
            // NRF_DFU_EVT_DFU_ABORTED -> bootloader_reset().
            return reply(reset: .abort)
        case .setReceiptNotification:
            guard let target = try? reader.readUnsigned(width: 2, endianness: .little) else {
                return reply(.result(.invalidParameter))
            }
            receiptTarget = Int(target)
            receiptCountdown = receiptTarget
            return reply()
        case .createObject:
            guard let type = try? reader.readByte(),
                  let size = try? reader.readUnsigned(width: 4, endianness: .little) else {
                return reply(.result(.invalidParameter))
            }
            receiptCountdown = receiptTarget
            currentObject = SecureDFUObjectType(rawValue: type)
            if currentObject == .command { inactivityRestartedAt = time }  // NRF_DFU_EVT_DFU_STARTED
            return reply(create(size: Int(size), at: time))
        case .selectObject:
            guard let type = try? reader.readByte() else { return reply(.result(.invalidParameter)) }
            currentObject = SecureDFUObjectType(rawValue: type)
            switch currentObject {
            case .command:
                return reply(.success, [UInt32(Self.commandObjectMaxSize), UInt32(progress.command.count),
                                        progress.commandCRC.finalize()])
            case .data:
                return reply(.success, [UInt32(Self.dataObjectMaxSize), UInt32(progress.offset),
                                        progress.crc.finalize()])
            default:
                currentObject = .invalid
                return reply(.result(.invalidObject))
            }
        case .calculateChecksum:
            switch currentObject {
            case .command: return reply(.success, [UInt32(progress.command.count), progress.commandCRC.finalize()])
            case .data: return reply(.success, [UInt32(progress.offset), progress.crc.finalize()])
            default: return reply(.result(.invalidObject))
            }
        case .execute:
            switch currentObject {
            case .command: return reply(executeCommand())
            case .data: return executeData(at: time)
            default: return reply(.result(.invalidObject))
            }
        default:
            return reply(.result(.opcodeNotSupported))
        }
    }

    private mutating func create(size: Int, at time: Duration) -> SecureDFUOutcome {
        switch currentObject {
        case .command:
            // nrf_dfu_validation_init_cmd_create
            if size == 0 { return .result(.invalidParameter) }
            if size > Self.commandObjectMaxSize { return .result(.insufficientResources) }
            progress = SecureDFUProgress()
            progress.commandSize = size
            return .success
        case .data:
            // on_data_obj_create_request
            guard let accepted = progress.acceptedInit else { return .result(.operationNotPermitted) }
            if size == 0 { return .result(.invalidParameter) }
            if size % flash.pageSize != 0, progress.offsetLast + size != accepted.firmwareSize {
                return .result(.invalidParameter)  // not page-aligned and not the last object
            }
            if size > Self.dataObjectMaxSize { return .result(.insufficientResources) }
            if progress.offsetLast + size > accepted.firmwareSize { return .result(.operationNotPermitted) }
            progress.dataObjectSize = size
            progress.crc = progress.crcLast
            progress.offset = progress.offsetLast
            let pages = (size + flash.pageSize - 1) / flash.pageSize
            flashIdleAt = max(flashIdleAt, time) + flash.pageErase * pages
            return .success
        default:
            currentObject = .invalid
            return .result(.invalidObject)
        }
    }

    private mutating func executeCommand() -> SecureDFUOutcome {
        // nrf_dfu_validation_init_cmd_execute
        guard progress.command.count == progress.commandSize else { return .result(.operationNotPermitted) }
        if progress.acceptedInit == nil {
            switch validator.validate(progress.command, installed: installedVersions) {
            case let .success(accepted):
                progress.acceptedInit = accepted
            case let .failure(refusal):
                if refusal != .undecodable { progress = SecureDFUProgress() }
                return refusal.outcome
            }
        }
        flashSettings = progress  // nrf_dfu_settings_write_and_backup
        return .success
    }

    private mutating func executeData(at time: Duration) -> [SecureDFUReply] {
        // on_data_obj_execute_request
        func reply(_ outcome: SecureDFUOutcome, readyAt: Duration, reset: SecureDFUReply.Reset? = nil) -> [SecureDFUReply] {
            [SecureDFUReply(bytes: SecureDFUResponse(.execute, outcome).bytes, readyAt: readyAt, reset: reset)]
        }
        guard progress.offset - progress.offsetLast == progress.dataObjectSize else {
            return reply(.result(.operationNotPermitted), readyAt: time)
        }
        progress.dataObjectSize = 0
        progress.crcLast = progress.crc
        progress.offsetLast = progress.offset
        inactivityRestartedAt = time  // NRF_DFU_EVT_OBJECT_RECEIVED
        var ready = max(time, flashIdleAt)
        guard let accepted = progress.acceptedInit, progress.offset == accepted.firmwareSize else {
            if resumePolicy != .initPacket { flashSettings = progress }
            return reply(.success, readyAt: ready)
        }
        // The whole image is in: post-validate, answer, then reset whatever the outcome.
        let image = Array(bank.prefix(accepted.firmwareSize))
        ready += flash.hashPerByte * accepted.firmwareSize
        flashIdleAt = ready
        let outcome: SecureDFUOutcome
        if accepted.packet.hashMatches(firmware: image) {
            outcome = .success
            install(image, accepted)
        } else {
            outcome = .extended(.verificationFailed)
        }
        progress = SecureDFUProgress()
        flashSettings = progress
        return reply(outcome, readyAt: ready, reset: .afterUpdate)
    }

    private mutating func install(_ image: [UInt8], _ accepted: SecureDFUAcceptedInit) {
        let version = accepted.packet.initCommand.firmwareVersion
        installed.append(NordicInstalledImage(type: accepted.type, data: image, firmwareVersion: version))
        if accepted.type == .application, let version { installedVersions.application = version }
        if accepted.type.rawValue & 2 != 0, let version { installedVersions.bootloader = version }
    }

    // MARK: - Packet

    /// A write to the packet characteristic (with or without response): part of the current
    /// object. Answered only when it completes a packet receipt notification interval.
    mutating func packet(_ value: [UInt8], at time: Duration) -> [SecureDFUReply] {
        guard !value.isEmpty else { return [] }
        let outcome: SecureDFUOutcome
        switch currentObject {
        case .command:
            // nrf_dfu_validation_init_cmd_append
            if progress.command.count + value.count > progress.commandSize {
                outcome = .result(.invalidParameter)
            } else {
                progress.command += value
                progress.commandCRC.update(value)
                outcome = .success
            }
        case .data:
            // on_data_obj_write_request
            if progress.acceptedInit == nil {
                outcome = .result(.operationNotPermitted)
            } else if progress.offset - progress.offsetLast + value.count > progress.dataObjectSize {
                outcome = .result(.invalidParameter)
            } else {
                if bank.count > progress.offset { bank.removeSubrange(progress.offset...) }
                bank += value
                progress.offset += value.count
                progress.crc.update(value)
                flashIdleAt = max(flashIdleAt, time) + flash.writePerByte * value.count
                outcome = .success
            }
        default:
            outcome = .result(.invalidObject)
        }
        // nrf_dfu_ble.c: every write counts down; at zero the answer is a CRC response.
        guard receiptTarget > 0 else { return [] }
        receiptCountdown -= 1
        guard receiptCountdown <= 0 else { return [] }
        receiptCountdown = receiptTarget
        let parameters = currentObject == .command
            ? [UInt32(progress.command.count), progress.commandCRC.finalize()]
            : [UInt32(progress.offset), progress.crc.finalize()]
        return [SecureDFUReply(bytes: SecureDFUResponse(.calculateChecksum, outcome, parameters: parameters).bytes,
                               readyAt: time)]
    }
}
