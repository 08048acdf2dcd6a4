/// The Telink BLE SDK's OTA server (`ota_server.c` `otaWrite`, `blt_ota_procTimeout`,
/// `blt_ota_server_terminate`, `blt_ota_procOtaFinish`; B85/B87, "BLE GROUP" 2020.06) as a pure
/// state machine: writes and the clock in, the end of the OTA out. research/telink-ota.md
/// section 3 has the sources.
///
/// - A start command (0xFF01) begins an OTA; a second one while it runs ends it with
///   `OTA_FLOW_ERR`. The version command (0xFF00) only calls the application. Other commands
///   end the OTA with `OTA_PACKET_INVALID`.
/// - Data packets are checked in the server's order: index within the image (`OTA_PACKET_INVALID`),
///   started (`OTA_FLOW_ERR`), the size seen before index 2 (`OTA_FW_SIZE_ERR`), 20 bytes
///   (`OTA_PDU_LEN_ERR`), the next index, a repeat included (`OTA_DATA_PACKET_SEQ_ERR`), the CRC
///   (`OTA_DATA_CRC_ERR`), the size at 0x18 (`OTA_FW_SIZE_ERR`), the firmware CRC-32 at the last
///   packet (`OTA_FW_CHECK_ERR`), `KNLT` at offset 8 (`OTA_FIRMWARE_MARK_ERR`).
/// - The end command checks the last index (when its complement vouches for it) and the
///   firmware check; success or not, the OTA has ended (`OTA_STEP_FEEDBACK`).
/// - The first error ends the OTA; later writes are ignored.
/// - Timeouts: the whole OTA (30 s from the start) and between data packets (5 s).
/// - A lost link does not end an OTA under way: the server's disconnect callback acts only when
///   `ota_step` is past idle, and nothing sets it there before a result (so the OTA ends later,
///   by a timeout). A link lost after the result finishes it at once.
struct TelinkOTAServer: Sendable, Equatable {
    /// An OTA under way, from the start command on (`flow_mask` has `OTA_FLOW_START`).
    struct Transfer: Sendable, Equatable {
        var startedAt: Duration
        /// `data_packet_tick`: the last valid data packet.
        var lastPacketAt: Duration?
        /// `cur_adr_index`.
        var currentIndex = -1
        /// `last_adr_index`: from the size at 0x18, else the most the area takes.
        var lastIndex: Int
        /// The size at 0x18 (`OTA_FLOW_GET_SIZE`).
        var declaredSize: Int?
        /// The data of every packet taken, 16 bytes each, as sent (flash has 0xFF at offset 8
        /// until the boot mark is written).
        var received: [UInt8] = []
        var crc = TelinkFirmwareCRC()
        /// `fw_check_match`: the CRC-32 trailer matched at the last packet.
        var firmwareCheckMatched = false
        /// `flash_addr_mark`: the end of the last packet the server began to write (set before
        /// the mark check, so a packet refused for its mark still counts).
        var flashMark = 0
    }

    /// An OTA that ended (`OTA_STEP_FEEDBACK`): the device notifies the result, ends the link,
    /// and finishes (`OTA_STEP_FINISH`) once the link is gone or after the feedback timeout.
    struct Ending: Sendable, Equatable {
        var result: TelinkOTAResult
        var at: Duration
        /// `flash_addr_mark`: bytes of the OTA area written to, erased when the OTA failed.
        var bytesWritten: Int
        /// The new image, on success.
        var image: [UInt8]?
    }

    enum Step: Sendable, Equatable {
        case idle
        case receiving(Transfer)
        case ended(Ending)
    }

    let settings: TelinkOTAServerSettings
    private(set) var step = Step.idle

    init(settings: TelinkOTAServerSettings) {
        self.settings = settings
    }

    /// `last_adr_index` before the size is known: `ota_firmware_max_size / 16`.
    private var defaultLastIndex: Int { settings.maximumImageSize / TelinkOTADataPacket.dataLength }

    // MARK: - Writes

    /// A write to the OTA characteristic at `time`. Returns the result when the OTA ends on it.
    mutating func write(_ value: [UInt8], at time: Duration) -> TelinkOTAResult? {
        // "OTA error has happened, do not process anymore". (After a success the SDK would still
        // take writes until it reboots; no client sends any, and they are ignored here.)
        guard value.count >= 2, !isEnded else { return nil }
        let code = TelinkOTACommand(rawValue: UInt16(value[0]) | UInt16(value[1]) << 8)
        return code.isCommand ? command(code, value, at: time) : data(index: Int(code.rawValue), value, at: time)
    }

    private var isEnded: Bool {
        if case .ended = step { return true }
        return false
    }

    private mutating func command(_ code: TelinkOTACommand, _ value: [UInt8], at time: Duration) -> TelinkOTAResult? {
        switch code {
        case .version, .versionRequest:
            return nil  // the application's callback; version compares are not modelled
        case .start, .startExtended:
            if case .receiving = step { return end(.flowError, at: time) }
            // CMD_OTA_START_EXT's PDU length must be 16n; only 16 (the legacy packets) is modelled.
            if code == .startExtended, value.count < 3 || value[2] != UInt8(TelinkOTADataPacket.dataLength) {
                return end(.pduLengthError, at: time)
            }
            step = .receiving(Transfer(startedAt: time, lastIndex: defaultLastIndex))
            return nil
        case .end:
            guard case let .receiving(transfer) = step else { return end(.flowError, at: time) }
            var result = TelinkOTAResult.success
            if let end = TelinkOTAEndCommand(bytes: value), end.isConsistent, Int(end.lastIndex) != transfer.currentIndex {
                result = .dataIncomplete
            }
            if settings.firmwareCheck, !transfer.firmwareCheckMatched { result = .firmwareCheckError }
            return end(result, at: time)
        default:
            return end(.packetInvalid, at: time)
        }
    }

    private mutating func data(index: Int, _ value: [UInt8], at time: Duration) -> TelinkOTAResult? {
        let lastIndex: Int
        if case let .receiving(transfer) = step { lastIndex = transfer.lastIndex } else { lastIndex = defaultLastIndex }
        guard index <= lastIndex else { return end(.packetInvalid, at: time) }
        guard case var .receiving(transfer) = step else { return end(.flowError, at: time) }
        if index == 2, transfer.declaredSize == nil { return end(.firmwareSizeError, at: time) }
        guard let packet = TelinkOTADataPacket(bytes: value) else { return end(.pduLengthError, at: time) }
        guard index == transfer.currentIndex + 1 else { return end(.dataPacketSequenceError, at: time) }
        guard packet.crcMatches else { return end(.dataCRCError, at: time) }

        let offset = index * TelinkOTADataPacket.dataLength
        let sizeOffset = 0x18
        if offset <= sizeOffset, offset + TelinkOTADataPacket.dataLength > sizeOffset {
            let at = sizeOffset - offset
            let size = packet.data[at..<at + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard size >= settings.minimumImageSize, size <= settings.maximumImageSize,
                  !settings.firmwareCheck || size & 0x0F == 4 else { return end(.firmwareSizeError, at: time) }
            transfer.declaredSize = size
            transfer.lastIndex = (size - 1) / TelinkOTADataPacket.dataLength
        }
        if settings.firmwareCheck {
            if index == 0 { transfer.crc = TelinkFirmwareCRC() }
            if index == transfer.lastIndex {
                // The trailer starts the last packet (16n + 4 bytes: `last_pdu_crc_offset` 0).
                let stored = packet.data[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard stored == transfer.crc.value else { return end(.firmwareCheckError, at: time) }
                transfer.firmwareCheckMatched = true
            } else {
                transfer.crc.update(packet.data)
            }
        }
        transfer.flashMark = offset + TelinkOTADataPacket.dataLength
        step = .receiving(transfer)
        // ota_save_data: the packet that holds offset 8 must carry the vendor mark there.
        let markOffset = 8
        if offset <= markOffset, offset + TelinkOTADataPacket.dataLength > markOffset,
           Array(packet.data[(markOffset - offset)...].prefix(4)) != [0x4B, 0x4E, 0x4C, 0x54] {
            return end(.firmwareMarkError, at: time)
        }
        transfer.received += packet.data
        transfer.currentIndex = index
        transfer.lastPacketAt = time
        step = .receiving(transfer)
        return nil
    }

    /// `blt_ota_setResult(OTA_STEP_FEEDBACK, result)`.
    private mutating func end(_ result: TelinkOTAResult, at time: Duration) -> TelinkOTAResult {
        var written = 0
        var image: [UInt8]?
        if case let .receiving(transfer) = step {
            written = transfer.flashMark
            if result == .success { image = Array(transfer.received.prefix(transfer.declaredSize ?? transfer.received.count)) }
        }
        step = .ended(Ending(result: result, at: time, bytesWritten: written, image: image))
        return result
    }

    // MARK: - Time and the end

    /// When a timeout of the OTA under way comes due (the whole OTA, or the next data packet).
    var deadline: Duration? {
        guard case let .receiving(transfer) = step else { return nil }
        let process = transfer.startedAt + settings.processTimeout
        guard let last = transfer.lastPacketAt else { return process }
        return min(process, last + settings.packetTimeout)
    }

    /// Ends the OTA under way if a timeout is due at `time` (`blt_ota_procTimeout`).
    mutating func expire(at time: Duration) -> TelinkOTAResult? {
        guard case let .receiving(transfer) = step else { return nil }
        if time >= transfer.startedAt + settings.processTimeout { return end(.timeout, at: time) }
        if let last = transfer.lastPacketAt, time >= last + settings.packetTimeout { return end(.dataPacketTimeout, at: time) }
        return nil
    }

    /// When an ended OTA finishes without a link to end (`blt_ota_procOtaResultFeedback`).
    var feedbackDeadline: Duration? {
        guard case let .ended(ending) = step else { return nil }
        return ending.at + settings.feedbackTimeout
    }

    /// `OTA_STEP_FINISH`: the ended OTA, the server idle again.
    mutating func finish() -> Ending? {
        guard case let .ended(ending) = step else { return nil }
        step = .idle
        return ending
    }

    /// RAM is lost (a reboot): nothing of an OTA survives but what it wrote to flash.
    mutating func reset() {
        step = .idle
    }

    /// A new world's clock.
    mutating func shift(by offset: Duration) {
        switch step {
        case .idle:
            break
        case var .receiving(transfer):
            transfer.startedAt += offset
            transfer.lastPacketAt = transfer.lastPacketAt.map { $0 + offset }
            step = .receiving(transfer)
        case var .ended(ending):
            ending.at += offset
            step = .ended(ending)
        }
    }

    /// The bytes of an OTA under way or ended, for reports.
    var receivedBytes: [UInt8] {
        switch step {
        case .idle: return []
        case let .receiving(transfer): return transfer.received
        case let .ended(ending): return ending.image ?? []
        }
    }
}
