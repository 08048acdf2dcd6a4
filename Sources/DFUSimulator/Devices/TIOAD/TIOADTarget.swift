import DFUBytes
import DFUPackage

/// What the OAD profile sends: a notification on Image Identify or on the control point, the
/// application ending the link, or the enabled image the application resets into.
enum TIOADReply: Equatable, Sendable {
    case notification(TIOADCharacteristic, [UInt8], readyAt: Duration)
    /// `OAD_IMG_ID_TIMEOUT`: "Display the error and terminate the link" (oad.h usage notes,
    /// project_zero.c).
    case endLink(reason: String, readyAt: Duration)
    /// `OAD_DL_COMPLETE_EVT` after the enable answer: the application resets the chip.
    case enabled(image: [UInt8], readyAt: Duration)
}

/// The three OAD characteristics (oad.h `OAD_IDX_*`).
package enum TIOADCharacteristic: Sendable, Hashable, CaseIterable {
    case identify, block, control
}

/// The target side of TI OAD as the BLE5-Stack's `oad.c` runs it in an off-chip OAD
/// application built with the stack library (the SDK's `simple_peripheral_oad_offchip`), as a
/// pure state machine. Each write is processed at once (oad.c queues it to the application
/// task, which handles it before the next one arrives); flash work delays the answer.
///
/// - Block size: `OAD_setBlockSize(MTU)`: `(MTU - 3) & ~3` clamped to 20...244; 20 when no link.
/// - Identify (`oadImgIdentifyWrite`, `oadCheckImageID`): the 22-byte payload's imgID must be
///   the device's (`INVALID_FILE`), its BIM and metadata versions the running image's
///   (`INCOMPATIBLE_FILE`, checked last so it wins); persistent app, factory, BIM and reserved
///   types are `INCOMPATIBLE_IMAGE`, a merged image larger than `BIM_START` `IMAGE_TOO_BIG`.
///   Accepted: the block count comes from the identify's `len`, a metadata page is erased, the
///   inactivity clock starts. The third refusal in a row is answered `IMG_ID_TIMEOUT` and the
///   application ends the link.
/// - Blocks (`oadImgBlockWrite`): only the block asked for, of exactly the block size (the
///   last: `len % (size - 4) + 4`); anything else is `BUFFER_OFL`, answered `12 03 00000000`,
///   and the OAD is reset. A flash write that fails (`busy:N`) is `12 02 <that block>` and a
///   reset: the only time the device names a block again, with an error. The header's blocks are kept until the header (`sizeof(imgHdr_t)`,
///   56 bytes here) is whole; then the payload start address must be 8 KiB aligned
///   (`INCOMPATIBLE_IMAGE`), the image's pages are erased and written. After the last block
///   `oadCheckDL` reads the header back: `crcStat` 0xFC or a CRC-32 of bytes 12 to `len` that
///   is not the header's `crc32` is `CRC_ERR` (`12 01 <block count>`, reset), else
///   `DL_COMPLETE` (`12 0E 00000000`).
/// - Inactivity (`oadInactivityTimeout`): 10 s after the identify or the last block, the OAD is
///   reset silently, in any state but idle.
/// - Enable (`OAD_EXT_CTRL_ENABLE_IMG`, 1 byte): only once the download is complete (`04 06`
///   otherwise); a type the BIM cannot run is `04 09`; else `04 00` and the application resets.
///   The 5-byte extended enable is not modelled (answered `04 FF`, as on-chip).
/// - A lost link: the application calls `OAD_cancel()`; no resume.
struct TIOADTarget: Sendable {
    /// `sizeof(imgHdr_t)` for a stack library build without security: the core header and the
    /// contiguous payload segment.
    static let candidateHeaderSize = 56
    /// `OAD_IMG_ID_RETRIES`.
    static let identifyRetries = 3
    /// `OAD_DEFAULT_BLOCK_SIZE`, `OAD_MAX_BLOCK_SIZE`.
    static let minimumBlockSize = 20
    static let maximumBlockSize = 244
    /// `HAL_FLASH_PAGE_SIZE` on CC26x2: the payload's start address must be a multiple.
    static let internalPageSize: UInt32 = 8192
    /// `BIM_START` for CC26X2 / CC13X2.
    static let bimStart: UInt32 = 0x56000

    /// What the device is doing with an image (`oadState_e`).
    private enum State: Equatable, Sendable {
        case idle
        /// Identify accepted (`OAD_CONFIG`).
        case configured(Download)
        /// Blocks arrive (`OAD_DOWNLOAD`).
        case downloading(Download)
        /// The image is whole and its CRC matched (`OAD_COMPLETE`).
        case complete(Download)
    }

    struct Download: Equatable, Sendable {
        var identify: [UInt8]
        var length: Int
        var blockCount: Int
        var nextBlock = 0
        /// What went to external flash, in block order.
        var stored: [UInt8] = []
    }

    /// The image the device runs: its header answers identify's version checks and 07.
    var running: [UInt8]
    /// The device's `OAD_IMG_ID_VAL`.
    var imageID: [UInt8]
    var flash: FlashTiming
    var inactivityTimeout: Duration
    /// Fault: the flash write of this block stores one bit wrong (its CRC then fails).
    var corruptBlock: Int?
    /// Fault (`busy:N`): the N-th block write (1-based, over the device's life) fails in flash:
    /// `writeFlashPg` returns an error, oad.c answers `12 02 <the same block>` and resets.
    var failingBlockWrites: Set<Int> = []
    private var blockWrites = 0

    private var state = State.idle
    private(set) var blockSize = minimumBlockSize
    private var retriesLeft = identifyRetries
    private var blockRequestsOn = true
    private(set) var globalStatus = TIOADStatus.success
    private(set) var inactivityDeadline: Duration?
    private var flashIdleAt: Duration = .zero
    /// The last image whose download completed (its bytes stay in external flash).
    private(set) var lastCompleted: [UInt8]?
    var notificationsEnabled: Set<TIOADCharacteristic> = []

    init(running: [UInt8], imageID: [UInt8], flash: FlashTiming, inactivityTimeout: Duration, corruptBlock: Int?) {
        self.running = running
        self.imageID = imageID
        self.flash = flash
        self.inactivityTimeout = inactivityTimeout
        self.corruptBlock = corruptBlock
    }

    // MARK: - For tests and stage reports

    /// The bytes of the OAD under way (nil when idle).
    var downloadedBytes: [UInt8]? {
        switch state {
        case .idle: return nil
        case let .configured(download), let .downloading(download), let .complete(download): return download.stored
        }
    }

    var isComplete: Bool { if case .complete = state { return true } else { return false } }
    var isIdle: Bool { state == .idle }

    // MARK: - Link

    /// `OAD_setBlockSize`, on the MTU exchange: outside idle it resets the OAD instead.
    mutating func mtuExchanged(_ mtu: Int) {
        guard state == .idle else {
            reset()
            return
        }
        blockSize = min(max((mtu - 3) & ~3, Self.minimumBlockSize), Self.maximumBlockSize)
    }

    /// `OAD_cancel()` on `GAP_LINK_TERMINATED_EVENT`; with no link the block size is 20 again.
    mutating func linkEnded() {
        reset()
        blockSize = Self.minimumBlockSize
        notificationsEnabled = []
    }

    /// `oadResetState`.
    private mutating func reset() {
        state = .idle
        retriesLeft = Self.identifyRetries
        inactivityDeadline = nil
    }

    mutating func inactivityExpired(at time: Duration) {
        guard let deadline = inactivityDeadline, deadline <= time else { return }
        reset()
    }

    mutating func shiftClock(by offset: Duration) {
        flashIdleAt += offset
        inactivityDeadline = inactivityDeadline.map { $0 + offset }
    }

    // MARK: - Image Identify

    mutating func identify(_ value: [UInt8], at time: Duration) -> [TIOADReply] {
        switch state {
        case .idle: break
        case .configured:
            // A second identify in CONFIG: `12 05 00000000` and the OAD is reset.
            let replies = blockRequest(.notStarted, block: 0, at: time)
            reset()
            return replies
        case .downloading, .complete:
            reset()
            return []
        }
        let payload = value + [UInt8](repeating: 0, count: max(0, 22 - value.count))  // oad.c casts whatever came
        var status = check(identify: payload)
        let ready = max(time, flashIdleAt) + (status == .success ? flash.pageErase : .zero)  // the metadata page
        var replies: [TIOADReply] = []
        if status == .success {
            let length = Int(le32(payload, at: 14))
            let perBlock = blockSize - 4
            state = .configured(Download(identify: payload, length: length, blockCount: (length + perBlock - 1) / perBlock))
            inactivityDeadline = time + inactivityTimeout
            flashIdleAt = ready
        } else {
            retriesLeft -= 1
            if retriesLeft == 0 { status = .imageIdentifyTimeout }
        }
        globalStatus = status
        replies.append(contentsOf: notify(.identify, [status.rawValue], readyAt: ready))
        if status == .imageIdentifyTimeout {
            replies.append(.endLink(reason: "the device ended the link after three refused image identifies (OAD_IMG_ID_TIMEOUT)",
                                    readyAt: ready))
        }
        return replies
    }

    /// `oadCheckImageID` for an off-chip, stack library build.
    private func check(identify payload: [UInt8]) -> TIOADStatus {
        let runningHeader = try? TIOADImageHeader(decoding: running)
        var status = TIOADStatus.success
        if Array(payload[0..<8]) != imageID { status = .invalidFile }
        if payload[8] != runningHeader?.bimVersion || payload[9] != runningHeader?.metadataVersion {
            status = .incompatibleFile
        }
        let type = TIOADImageType(rawValue: payload[12])
        if type == .applicationAndStackMerged {
            if le32(payload, at: 14) &- 1 > Self.bimStart - 1 { status = .imageTooBig }
        } else if type.isRefusedByDevices {
            status = .incompatibleImage
        }
        return status
    }

    // MARK: - Image Block

    mutating func block(_ value: [UInt8], at time: Duration) -> [TIOADReply] {
        guard case var .downloading(download) = state else {
            if case .complete = state {
                reset()
                return []
            }
            // Idle or configured: `12 05 00000000`, and the OAD (if any) is reset.
            let replies = blockRequest(.notStarted, block: 0, at: time)
            reset()
            return replies
        }
        inactivityDeadline = time + inactivityTimeout
        let perBlock = blockSize - 4
        let number = value.count >= 4 ? Int(le32(value, at: 0)) : -1
        let last = download.blockCount - 1
        let expectedSize = number == last && download.length % perBlock != 0 ? download.length % perBlock + 4 : blockSize
        guard number == download.nextBlock, value.count == expectedSize else {
            globalStatus = .bufferOverflow
            let replies = blockRequest(.bufferOverflow, block: 0, at: time)
            reset()
            return replies
        }
        blockWrites += 1
        if failingBlockWrites.contains(blockWrites) {
            globalStatus = .flashError
            let replies = blockRequest(.flashError, block: number, at: time)
            reset()
            return replies
        }
        var data = Array(value.dropFirst(4))
        if number == corruptBlock, !data.isEmpty { data[data.count - 1] ^= 0x01 }
        var ready = max(time, flashIdleAt)
        let headerBlocks = (Self.candidateHeaderSize + perBlock - 1) / perBlock
        download.stored += data
        if number == headerBlocks - 1 || (number == last && number < headerBlocks - 1) {
            // The header is whole: validate it, erase the image's pages, write what is held.
            if Self.payloadStart(of: download.stored) % Self.internalPageSize != 0 {
                globalStatus = .incompatibleImage
                let replies = blockRequest(.incompatibleImage, block: number + 1, at: ready)
                reset()
                return replies
            }
            let pages = (download.length + flash.pageSize - 1) / flash.pageSize
            ready += flash.pageErase * pages + flash.writePerByte * download.stored.count
        } else if number >= headerBlocks {
            ready += flash.writePerByte * data.count
        }
        download.nextBlock = number + 1
        flashIdleAt = ready
        guard download.nextBlock == download.blockCount else {
            state = .downloading(download)
            globalStatus = .success
            return blockRequest(.success, block: download.nextBlock, at: ready)
        }
        // oadCheckDL: the header read back from flash, the CRC over bytes 12 to its len.
        let checked = ready + flash.hashPerByte * download.length
        flashIdleAt = checked
        guard Self.crcMatches(download.stored) else {
            globalStatus = .crcError
            let replies = blockRequest(.crcError, block: download.blockCount, at: checked)
            reset()
            return replies
        }
        download.nextBlock = 0
        state = .complete(download)
        lastCompleted = download.stored
        globalStatus = .downloadComplete
        return blockRequest(.downloadComplete, block: 0, at: checked)
    }

    /// `imgPayload.startAddr` where `imgHdr_t` has it in this build: right after the core
    /// header's 44 bytes and the segment's 8 (oad.c reads the struct, not the segment list).
    static func payloadStart(of stored: [UInt8]) -> UInt32 {
        guard stored.count >= 56 else { return 0 }
        return UInt32(stored[52]) | UInt32(stored[53]) << 8 | UInt32(stored[54]) << 16 | UInt32(stored[55]) << 24
    }

    /// `oadCheckDL`: crcStat not CRC_INVALID, and the CRC-32 of bytes 12 to the header's len
    /// (erased flash, 0xFF, past what was written) equal to the header's crc32.
    static func crcMatches(_ stored: [UInt8]) -> Bool {
        guard let header = try? TIOADImageHeader(decoding: stored), header.crcStatus != TIOADImageHeader.crcInvalid else {
            return false
        }
        let length = Int(header.length)
        let image = stored.count >= length ? stored : stored + [UInt8](repeating: 0xFF, count: length - stored.count)
        return TIOADImageHeader.crc(of: image, length: length) == header.crc32
    }

    // MARK: - Control point

    mutating func control(_ value: [UInt8], at time: Duration) -> [TIOADReply] {
        guard let first = value.first else { return [] }
        let opcode = TIOADControlOpcode(rawValue: first)
        let runningHeader = try? TIOADImageHeader(decoding: running)
        let answer: [UInt8]
        switch opcode {
        case .getBlockSize:
            answer = [first, UInt8(blockSize & 0xFF), UInt8(blockSize >> 8)]
        case .imageCount:
            if case .configured = state { answer = [first, TIOADStatus.success.rawValue] } else {
                answer = [first, TIOADStatus.notStarted.rawValue]
            }
        case .startOAD:
            guard case let .configured(download) = state else {
                answer = [first, TIOADStatus.notStarted.rawValue]
                break
            }
            state = .downloading(download)
            return blockRequest(.success, block: 0, at: max(time, flashIdleAt))  // "a RSP is not sent"
        case .enableImage:
            return enable(value, at: time)
        case .cancelOAD:
            if state == .idle { answer = [first, TIOADStatus.notStarted.rawValue] } else {
                reset()
                answer = [first, TIOADStatus.success.rawValue]
            }
        case .disableBlockNotifications:
            blockRequestsOn = false
            answer = [first, TIOADStatus.success.rawValue]
        case .getSoftwareVersion:
            answer = [first] + (runningHeader?.softwareVersion ?? [0xFF, 0xFF, 0xFF, 0xFF])
        case .getImageStatus:
            answer = [first, globalStatus.rawValue]
        case .getProfileVersion:
            answer = [first, 0x01]  // OAD_PROFILE_VERSION
        case .getDeviceType:
            answer = [first, TIOADDevice.chipType, TIOADDevice.chipFamily, TIOADDevice.hardwareRevision, 0xFF]
        case .getImageInfo:
            // The on-chip form; the off-chip list of external flash images is not modelled.
            answer = [first, 0x01, runningHeader?.copyStatus ?? 0xFF, runningHeader?.crcStatus ?? 0xFF,
                      runningHeader?.imageType.rawValue ?? 0xFF, runningHeader?.imageNumber ?? 0xFF]
        case .eraseBonds:
            answer = [first, TIOADStatus.success.rawValue]
        default:
            answer = [TIOADStatus.commandNotSupported.rawValue]
        }
        return notify(.control, answer, readyAt: max(time, flashIdleAt))
    }

    private mutating func enable(_ value: [UInt8], at time: Duration) -> [TIOADReply] {
        let opcode = TIOADControlOpcode.enableImage.rawValue
        guard value.count == 1 else {
            // Five bytes: the extended enable of an image kept in external flash, not modelled
            // (answered as an on-chip device does). Any other length: oad.c answers the
            // SUCCESS it started with and does nothing.
            let status: TIOADStatus = value.count == 5 ? .commandNotSupported : .success
            return notify(.control, [opcode, status.rawValue], readyAt: time)
        }
        guard case let .complete(download) = state else {
            return notify(.control, [opcode, TIOADStatus.downloadNotComplete.rawValue], readyAt: time)
        }
        let type = (try? TIOADImageHeader(decoding: download.stored))?.imageType.rawValue ?? 0xFF
        guard (type > 0 && type <= 3) || type == TIOADImageType.applicationStackLibrary.rawValue else {
            return notify(.control, [opcode, TIOADStatus.incompatibleImage.rawValue], readyAt: time)
        }
        // The metadata page gets NEED_COPY: an erase and a write.
        let ready = max(time, flashIdleAt) + flash.pageErase
        flashIdleAt = ready
        return notify(.control, [opcode, TIOADStatus.success.rawValue], readyAt: ready)
            + [.enabled(image: download.stored, readyAt: ready)]
    }

    // MARK: - Notifications

    /// `oadGetNextBlockReq`: `12 <status> <u32 block>` unless block requests were disabled.
    private func blockRequest(_ status: TIOADStatus, block: Int, at time: Duration) -> [TIOADReply] {
        guard blockRequestsOn else { return [] }
        var writer = ByteWriter()
        writer.append(byte: TIOADControlOpcode.blockRequest.rawValue)
        writer.append(byte: status.rawValue)
        writer.append(UInt32(truncatingIfNeeded: block), endianness: .little)
        return notify(.control, writer.bytes, readyAt: time)
    }

    /// `oadSendNotification`: nothing goes out unless the peer enabled notifications.
    private func notify(_ characteristic: TIOADCharacteristic, _ value: [UInt8], readyAt: Duration) -> [TIOADReply] {
        notificationsEnabled.contains(characteristic) ? [.notification(characteristic, value, readyAt: readyAt)] : []
    }

    private func le32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
