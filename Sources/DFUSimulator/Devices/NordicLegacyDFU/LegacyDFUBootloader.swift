import DFUBytes
import DFUPackage

/// What the legacy bootloader sends: a control-point notification, or the end of DFU mode.
enum LegacyDFUReply: Equatable, Sendable {
    case notification([UInt8], readyAt: Duration)
    /// The bootloader leaves DFU mode (activate, reset): `dfu_transport_close` ends the link
    /// (LL terminate) without an answer, then it activates `activation`, if any, and starts the
    /// application or resets (nRF5 SDK 11 examples/dfu/bootloader/main.c `main`).
    case endDFU(readyAt: Duration, activation: NordicInstalledImage?)
}

/// The request handling of an nRF5 SDK <= 11 legacy DFU bootloader (dfu_transport_ble.c over
/// dfu_dual_bank.c) as a pure state machine. Control-point opcodes choose what the next packet
/// writes are (start sizes, init packet, image); the bootloader's own state decides whether
/// they are accepted.
///
/// A disconnect changes nothing: `BLE_GAP_EVT_DISCONNECTED` only restarts advertising
/// (dfu_transport_ble.c `on_ble_evt`), so `m_dfu_state`, the bytes received and the counters
/// stay, and a new Start is refused `10 01 02` (dfu_dual_bank.c `dfu_start_pkt_handle` takes
/// only `DFU_STATE_IDLE`); a client sends 06 to start over. Leaving DFU mode (activate, 06,
/// the DFU timeout) loses everything but flash (`restart()`).
struct LegacyDFUBootloader {
    /// `m_init_packet[64]`.
    static let initPacketMaxSize = 64
    /// `DFU_TIMEOUT_INTERVAL` (dfu_bank_internal.h): DFU mode ends after 120 s without a start,
    /// init, data or validate packet (`dfu_timer_restart` in dfu_dual_bank.c).
    static let timeout: Duration = .seconds(120)

    private enum State: Equatable {
        case idle
        /// Start packet accepted, bank erased (`DFU_STATE_RDY`).
        case ready
        case receivingInitPacket
        /// Init packet accepted; image data welcome (`DFU_STATE_RX_DATA_PKT`).
        case receivingImage
        /// Image validated (`DFU_STATE_WAIT_4_ACTIVATE`).
        case validated
    }

    /// What packet writes are, as the last control-point opcode said (`m_pkt_type`).
    private enum PacketKind: Equatable {
        case none, start, initPacket, image
    }

    var flash: FlashTiming
    var capacity: Int
    var failingCommands: Set<Int>

    private var state = State.idle
    private var packetKind = PacketKind.none
    private var imageType = LegacyDFUImageType(rawValue: 0)
    private var imageSize = 0
    private var initPacket: [UInt8] = []
    private(set) var image: [UInt8] = []
    private var receiptTarget = 0
    private var receiptCountdown = 0
    private var flashIdleAt: Duration = .zero
    /// When the DFU timer was last (re)started.
    private(set) var timerRestartedAt: Duration = .zero
    private(set) var installed: [NordicInstalledImage] = []
    private(set) var commandLog: [LegacyDFUOpcode] = []

    init(flash: FlashTiming, capacity: Int, failingCommands: Set<Int>) {
        self.flash = flash
        self.capacity = capacity
        self.failingCommands = failingCommands
    }

    /// DFU mode starts again at `time` (`dfu_init`): everything in RAM is gone; the installed
    /// images are in flash.
    mutating func restart(at time: Duration) {
        let keep = (flash, capacity, failingCommands, installed, commandLog)
        self = LegacyDFUBootloader(flash: keep.0, capacity: keep.1, failingCommands: keep.2)
        installed = keep.3
        commandLog = keep.4
        timerRestartedAt = time
    }

    /// When the DFU timer ends DFU mode unless a packet restarts it.
    var timeoutDeadline: Duration { timerRestartedAt + Self.timeout }

    /// The image was received whole and its CRC checked (`DFU_STATE_WAIT_4_ACTIVATE`).
    var isValidated: Bool { state == .validated }

    /// The next packet write is the three image sizes (`m_pkt_type == PKT_TYPE_START`).
    var expectsImageSizes: Bool { packetKind == .start }

    /// A new world's clock.
    mutating func shiftClock(by offset: Duration) {
        flashIdleAt += offset
        timerRestartedAt += offset
    }

    private func response(_ opcode: LegacyDFUOpcode, _ status: LegacyDFUStatus, readyAt: Duration) -> LegacyDFUReply {
        .notification([LegacyDFUOpcode.response.rawValue, opcode.rawValue, status.rawValue], readyAt: readyAt)
    }

    // MARK: - Control point

    mutating func controlPoint(_ value: [UInt8], at time: Duration) -> [LegacyDFUReply] {
        guard let first = value.first else { return [] }
        let opcode = LegacyDFUOpcode(rawValue: first)
        commandLog.append(opcode)
        if failingCommands.contains(commandLog.count) { return [response(opcode, .operationFailed, readyAt: time)] }
        switch opcode {
        case .startDFU:
            guard value.count >= 2 else { return [response(opcode, .notSupported, readyAt: time)] }
            packetKind = .start
            imageType = LegacyDFUImageType(rawValue: value[1])
            return []
        case .initializeParameters:
            packetKind = .initPacket
            guard value.count >= 2, value[1] == 0x01 else { return [] }
            return [completeInitPacket(at: time)]
        case .receiveFirmwareImage:
            packetKind = .image
            return []
        case .validateFirmware:
            timerRestartedAt = time
            return [validate(at: time)]
        case .activateAndReset:
            // `dfu_image_activate`, or `dfu_reset` when nothing was validated.
            return [.endDFU(readyAt: time, activation: state == .validated ? install() : nil)]
        case .reset:
            return [.endDFU(readyAt: time, activation: nil)]
        case .reportReceivedImageSize:
            var writer = ByteWriter()
            writer.append(bytes: [LegacyDFUOpcode.response.rawValue, opcode.rawValue, LegacyDFUStatus.success.rawValue])
            writer.append(UInt32(image.count), endianness: .little)
            return [.notification(writer.bytes, readyAt: time)]
        case .packetReceiptNotificationRequest:
            var reader = ByteReader(Array(value.dropFirst()))
            receiptTarget = Int((try? reader.readUnsigned(width: 2, endianness: .little)) ?? 0)
            receiptCountdown = receiptTarget
            return []
        default:
            return [response(opcode, .notSupported, readyAt: time)]
        }
    }

    private mutating func completeInitPacket(at time: Duration) -> LegacyDFUReply {
        guard state == .receivingInitPacket else { return response(.initializeParameters, .invalidState, readyAt: time) }
        // dfu_init_prevalidate: the packet must hold its fields up to the CRC; device type,
        // revision and sd_req are accepted whatever they are (as 0xFFFF / 0xFFFE would be).
        guard (try? LegacyInitPacket(decoding: initPacket)) != nil else {
            return response(.initializeParameters, .operationFailed, readyAt: time)
        }
        state = .receivingImage
        return response(.initializeParameters, .success, readyAt: time)
    }

    private mutating func validate(at time: Duration) -> LegacyDFUReply {
        guard state == .receivingImage, image.count == imageSize else {
            return response(.validateFirmware, .invalidState, readyAt: time)
        }
        let ready = max(time, flashIdleAt) + flash.hashPerByte * imageSize
        guard let packet = try? LegacyInitPacket(decoding: initPacket), packet.crcMatches(firmware: image) else {
            return response(.validateFirmware, .crcError, readyAt: ready)
        }
        state = .validated
        return response(.validateFirmware, .success, readyAt: ready)
    }

    private mutating func install() -> NordicInstalledImage {
        let types: [LegacyDFUImageType: NordicFirmwareType] = [
            .softDevice: .softDevice, .bootloader: .bootloader,
            .softDeviceBootloader: .softDeviceBootloader, .application: .application,
        ]
        let version = (try? LegacyInitPacket(decoding: initPacket))?.applicationVersion
        let activated = NordicInstalledImage(type: types[imageType] ?? NordicFirmwareType(rawValue: Int32(imageType.rawValue)),
                                             data: image, firmwareVersion: version)
        installed.append(activated)
        return activated
    }

    /// The names a control-point write answers to for command faults.
    static func commandNames(controlPoint value: [UInt8]) -> [String] {
        guard let first = value.first else { return [] }
        switch LegacyDFUOpcode(rawValue: first) {
        case .startDFU: return ["start_dfu"]
        case .initializeParameters: return [value.count >= 2 && value[1] == 0x01 ? "init_complete" : "init_start"]
        case .receiveFirmwareImage: return ["receive_firmware"]
        case .validateFirmware: return ["validate"]
        case .activateAndReset: return ["activate"]
        case .reset: return ["reset"]
        case .reportReceivedImageSize: return ["report_size"]
        case .packetReceiptNotificationRequest: return ["set_prn"]
        default: return []
        }
    }

    // MARK: - Packet

    mutating func packet(_ value: [UInt8], at time: Duration) -> [LegacyDFUReply] {
        switch packetKind {
        case .none: return []  // "not possible to find out what packet it is. Ignore."
        case .start: return [start(value, at: time)]
        case .initPacket: return appendInitPacket(value, at: time)
        case .image: return appendImage(value, at: time)
        }
    }

    /// `start_data_process` + `dfu_start_pkt_handle`: three u32 sizes (SoftDevice, bootloader,
    /// application); the answer leaves once the bank is erased.
    private mutating func start(_ value: [UInt8], at time: Duration) -> LegacyDFUReply {
        guard value.count == 12 else { return response(.startDFU, .notSupported, readyAt: time) }
        guard state == .idle else { return response(.startDFU, .invalidState, readyAt: time) }
        var reader = ByteReader(value)
        let sizes = (0..<3).map { _ in Int((try? reader.readUnsigned(width: 4, endianness: .little)) ?? 0) }
        let announced = [sizes[0] > 0, sizes[1] > 0, sizes[2] > 0]
        let expected: [Bool]
        switch imageType {
        case .softDevice: expected = [true, false, false]
        case .bootloader: expected = [false, true, false]
        case .softDeviceBootloader: expected = [true, true, false]
        case .application: expected = [false, false, true]
        default: return response(.startDFU, .notSupported, readyAt: time)
        }
        guard announced == expected, sizes.allSatisfy({ $0 % 4 == 0 }) else {
            return response(.startDFU, .notSupported, readyAt: time)
        }
        timerRestartedAt = time
        let total = sizes.reduce(0, +)
        guard total <= capacity else { return response(.startDFU, .dataSizeExceedsLimit, readyAt: time) }
        imageSize = total
        state = .ready
        let pages = (total + flash.pageSize - 1) / flash.pageSize
        flashIdleAt = max(flashIdleAt, time) + flash.pageErase * pages
        return response(.startDFU, .success, readyAt: flashIdleAt)
    }

    /// `init_data_process`: each write is padded with zeros to whole words, then appended.
    private mutating func appendInitPacket(_ value: [UInt8], at time: Duration) -> [LegacyDFUReply] {
        switch state {
        case .ready: state = .receivingInitPacket
        case .receivingInitPacket: break
        default: return [response(.initializeParameters, .invalidState, readyAt: time)]
        }
        timerRestartedAt = time
        let padded = value + [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
        guard initPacket.count + padded.count <= Self.initPacketMaxSize else {
            return [response(.initializeParameters, .dataSizeExceedsLimit, readyAt: time)]
        }
        initPacket += padded
        return []
    }

    /// `app_data_process` + `dfu_data_pkt_handle`.
    private mutating func appendImage(_ value: [UInt8], at time: Duration) -> [LegacyDFUReply] {
        guard value.count % 4 == 0 else { return [response(.receiveFirmwareImage, .notSupported, readyAt: time)] }
        guard state == .receivingImage else { return [response(.receiveFirmwareImage, .invalidState, readyAt: time)] }
        guard image.count + value.count <= imageSize else {
            return [response(.receiveFirmwareImage, .dataSizeExceedsLimit, readyAt: time)]
        }
        image += value
        timerRestartedAt = time
        flashIdleAt = max(flashIdleAt, time) + flash.writePerByte * value.count
        if image.count == imageSize {
            // The final packet: no receipt, even on a receipt boundary; `10 03 01` once its
            // flash write completes (dfu_transport_ble.c `app_data_process` keeps the packet
            // as `mp_final_packet`, and `dfu_cb_handler` answers from pstorage's callback).
            return [response(.receiveFirmwareImage, .success, readyAt: flashIdleAt)]
        }
        guard receiptTarget > 0 else { return [] }
        receiptCountdown -= 1
        guard receiptCountdown <= 0 else { return [] }
        receiptCountdown = receiptTarget
        var writer = ByteWriter()
        writer.append(byte: LegacyDFUOpcode.packetReceiptNotification.rawValue)
        writer.append(UInt32(image.count), endianness: .little)
        return [.notification(writer.bytes, readyAt: time)]
    }
}
