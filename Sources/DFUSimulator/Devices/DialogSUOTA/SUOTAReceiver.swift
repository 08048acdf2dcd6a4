import DFUBytes
import DFUPackage

/// The SUOTA receiver of Dialog's SDK 6 (DA14585/586/531) as a pure state machine: the
/// application side (`app_suotar.c`, `app_suotar_task.c`) behind the GATT service, writing an
/// image into one bank of `SUOTAFlash`. Every status it produces is one SERV_STATUS value.
///
/// - MEM_DEV with an image type (0x12 I2C, 0x13 SPI; bank <= 2 else INVAL_IMG_BANK) starts a
///   session: IMG_STARTED, and the block buffer, the image index, PATCH_LEN and the running XOR
///   are reset (`app_suotar_start`). Every MEM_DEV write sets MEM_INFO to 0.
/// - PATCH_LEN: 0 → PATCH_LEN_ERR; no memory type set → ignored; over the 512-byte buffer
///   (`SUOTA_OVERALL_PD_SIZE`) → INT_MEM_ERR and the old length stays.
/// - PATCH_DATA fills the buffer; when it holds PATCH_LEN bytes the block is handled
///   (`app_suotar_img_hdlr`): XORed into the running checksum, the first block's header checked
///   and a bank chosen, erased and written (with the valid flag left 0xFF), later blocks written
///   up to the image's end (the appended XOR byte is not written), MEM_INFO = bytes of the image
///   written, then CMP_OK or the error. More bytes than PATCH_LEN: PATCH_LEN_ERR (the buffer is
///   not emptied); no PATCH_LEN: PATCH_LEN_ERR; buffer overflow: INT_MEM_ERR.
/// - MEM_DEV 0xFE (end): XOR not 0 → CRC_ERR; else the bank's valid flag is set → CMP_OK (no
///   session open: EXT_MEM_WRITE_ERR, as an SPI-only build answers). The session ends either way.
/// - MEM_DEV 0xFD (reboot): no status; the device disconnects and resets when the link is down.
/// - MEM_DEV 0xFF: SRV_EXIT, session ended. Anything else: INVAL_MEM_TYPE.
///
/// Nothing here is reset by a lost link (`suota_state` is in retention memory); a reset of the
/// device (`platform_reset`, a power glitch) starts a new receiver (`app_suotar_init`).
struct SUOTAReceiver: Sendable, Equatable {
    /// What one write led to.
    struct Outcome: Sendable, Equatable {
        var statuses: [SUOTAStatus] = []
        /// Flash work before the statuses can be sent.
        var work: Duration = .zero
        /// MEM_DEV 0xFD: the device disconnects, then resets.
        var rebootRequested = false
    }

    /// `SUOTA_OVERALL_PD_SIZE`.
    static let bufferSize = 512
    /// `ADDITINAL_CRC_SIZE`: the XOR byte after the image.
    static let checksumSize = 1

    private(set) var memoryDevice = SUOTAMemoryDevice.Kind.invalid
    private(set) var imageBank: UInt16 = 0
    private(set) var gpioMap: UInt32 = 0
    /// `new_patch_len`.
    private(set) var patchLength = 0
    /// `suota_all_pd[0 ..< suota_block_idx]`.
    private(set) var block: [UInt8] = []
    /// `suota_img_idx`: bytes of the image (header included) written.
    private(set) var imageIndex = 0
    /// `suota_image_len`: code size + 64, from the first block's header.
    private(set) var imageLength = 0
    /// `crc_calc`: the XOR of every byte of every block handled.
    private(set) var checksum: UInt8 = 0
    /// The bank the first block chose (`mem_base_add`).
    private(set) var targetBank: Int?
    /// The MEM_INFO characteristic's value.
    private(set) var memoryInfo: UInt32 = 0
    /// `suota_state.reboot_requested`: MEM_DEV 0xFD came; the device resets once the link is down.
    private(set) var isRebootRequested = false
    /// The next flash write fails (a `busy:N` fault): EXT_MEM_WRITE_ERR, nothing written.
    var failsNextFlashWrite = false
    /// `corrupt-stored=OFFSET` (`DialogSUOTASettings.corruptStoredOffset`): the image byte at
    /// this file offset is stored with bit 0 inverted; the XOR, computed over the bytes
    /// received, does not see it.
    var corruptStoredOffset: Int?

    init(corruptStoredOffset: Int? = nil) {
        self.corruptStoredOffset = corruptStoredOffset
    }

    /// `bytes` as flash stores them when they start at image file offset `offset`.
    private func stored(_ bytes: some Collection<UInt8>, at offset: Int) -> [UInt8] {
        var bytes = Array(bytes)
        if let corrupt = corruptStoredOffset, corrupt >= offset, corrupt < offset + bytes.count {
            bytes[corrupt - offset] ^= 0x01
        }
        return bytes
    }

    private var isImageSession: Bool { memoryDevice.isExternalImage }

    /// Whether `value` written to PATCH_DATA completes a block, which the receiver then writes to
    /// flash.
    func completesBlock(_ value: [UInt8]) -> Bool {
        isImageSession && patchLength > 0 && block.count + value.count == patchLength
    }

    /// Whether MEM_DEV `request` writes the valid flag (an end command that passes the XOR check).
    func writesValidFlag(_ request: SUOTAMemoryDevice) -> Bool {
        request.kind == .imageEnd && checksum == 0 && isImageSession
    }

    // MARK: - MEM_DEV

    mutating func memoryDeviceWritten(_ request: SUOTAMemoryDevice, flash: inout SUOTAFlash,
                                      timing: FlashTiming) -> Outcome {
        memoryInfo = 0
        let kind = request.kind
        if kind.isMemoryType {
            memoryDevice = kind
            if kind.isExternalImage {
                guard request.baseAddress <= 2 else { return Outcome(statuses: [.invalidImageBank]) }
                imageBank = request.baseAddress
            }
        }
        switch kind {
        case .imageSPIFlash, .imageI2CEEPROM:
            block = []
            imageIndex = 0
            patchLength = 0
            checksum = 0
            return Outcome(statuses: [.imageStarted])
        case .imageSystemRAM, .imageRetentionRAM:
            return Outcome(statuses: [.invalidMemoryType])
        case .serviceExit:
            endSession()
            return Outcome(statuses: [.serviceExit])
        case .imageEnd:
            let outcome = end(flash: &flash, timing: timing)
            endSession()
            return outcome
        case .reboot:
            isRebootRequested = true
            return Outcome(rebootRequested: true)
        default:
            memoryDevice = .invalid
            return Outcome(statuses: [.invalidMemoryType])
        }
    }

    /// `app_set_image_valid_flag` after the XOR check.
    private mutating func end(flash: inout SUOTAFlash, timing: FlashTiming) -> Outcome {
        guard checksum == 0 else { return Outcome(statuses: [.crcError]) }
        guard isImageSession, !failsNextFlashWrite else {
            failsNextFlashWrite = false
            return Outcome(statuses: [.externalMemoryWriteError])
        }
        if let targetBank, flash.banks[targetBank].header != nil {
            flash.banks[targetBank].header?.validFlag = SUOTAImageHeader.validMark
        }
        return Outcome(statuses: [.completedOK], work: timing.writePerByte)
    }

    /// `app_suotar_stop` + `app_suotar_reset`.
    private mutating func endSession() {
        memoryDevice = .invalid
        block = []
        patchLength = 0
    }

    // MARK: - GPIO_MAP, PATCH_LEN

    mutating func gpioMapWritten(_ value: [UInt8]) {
        var reader = ByteReader(Array(value.prefix(4)) + [UInt8](repeating: 0, count: max(0, 4 - value.count)))
        gpioMap = UInt32((try? reader.readUnsigned(width: 4, endianness: .little)) ?? 0)
    }

    mutating func patchLengthWritten(_ value: [UInt8]) -> Outcome {
        let length = Int(value.first ?? 0) | Int(value.count > 1 ? value[1] : 0) << 8
        guard length > 0 else { return Outcome(statuses: [.patchLengthError]) }
        guard memoryDevice.isMemoryType else { return Outcome() }
        guard memoryDevice.rawValue & 0x10 != 0 else { return Outcome(statuses: [.invalidMemoryType]) }
        guard length <= Self.bufferSize else { return Outcome(statuses: [.internalMemoryError]) }
        patchLength = length
        return Outcome()
    }

    // MARK: - PATCH_DATA

    mutating func patchDataWritten(_ value: [UInt8], flash: inout SUOTAFlash, timing: FlashTiming) -> Outcome {
        guard memoryDevice.isMemoryType else { return Outcome(statuses: [.invalidMemoryType]) }
        guard patchLength > 0 else { return Outcome(statuses: [.patchLengthError]) }
        guard memoryDevice.rawValue & 0x10 != 0 else { return Outcome(statuses: [.invalidMemoryType]) }
        guard block.count + value.count <= Self.bufferSize else { return Outcome(statuses: [.internalMemoryError]) }
        block += value
        var outcome = Outcome()
        if block.count == patchLength {
            outcome = handleBlock(flash: &flash, timing: timing)
        }
        if block.count > patchLength { outcome.statuses.append(.patchLengthError) }
        return outcome
    }

    /// `app_suotar_img_hdlr`.
    private mutating func handleBlock(flash: inout SUOTAFlash, timing: FlashTiming) -> Outcome {
        checksum = block.reduce(checksum, ^)
        guard isImageSession else { return Outcome(statuses: [.invalidMemoryType]) }
        var outcome = Outcome(statuses: [.completedOK])
        if failsNextFlashWrite {
            failsNextFlashWrite = false
            outcome.statuses = [.externalMemoryWriteError]
        } else if imageIndex == 0 {
            switch startImage(flash: &flash, timing: timing) {
            case let .success(work):
                outcome.work = work
                imageIndex += block.count
            case let .failure(refusal):
                outcome.statuses = [refusal.status]
            }
        } else if imageLength + Self.checksumSize >= imageIndex + block.count, let targetBank {
            let count = min(block.count, imageLength - imageIndex)
            flash.banks[targetBank].code += stored(block.prefix(count), at: imageIndex)
            outcome.work = timing.writePerByte * count
            imageIndex += count
        } else {
            outcome.statuses = [.externalMemoryWriteError]
        }
        block = []
        memoryInfo = UInt32(imageIndex)
        return outcome
    }

    /// The status a first block is refused with.
    struct Refusal: Error, Equatable {
        var status: SUOTAStatus
    }

    /// `app_read_image_headers`: checks the first block's header against the device's product
    /// header and banks, picks a bank, erases it and writes the header (valid flag 0xFF) and the
    /// rest of the block. The time the flash takes, or the status refusing the image.
    private mutating func startImage(flash: inout SUOTAFlash, timing: FlashTiming) -> Result<Duration, Refusal> {
        guard let header = try? SUOTAImageHeader(decoding: block), header.hasSignature else {
            return .failure(Refusal(status: .invalidImageHeader))
        }
        imageLength = Int(header.codeSize) + SUOTAImageHeader.size
        guard flash.offsets != nil else { return .failure(Refusal(status: .invalidProductHeader)) }
        guard header.codeSize > 0, Int(header.codeSize) <= flash.maximumCodeSize else {
            return .failure(Refusal(status: .invalidImageSize))
        }
        let valid = flash.banks.map(\.isValid)
        let same = flash.banks.map { bank in bank.isValid && bank.header.map { $0.isSameFirmware(as: header) } == true }
        let ids = flash.banks.map { bank in bank.isValid ? bank.header?.imageID ?? 0 : 0 }
        let chosen: Int
        if imageBank == 0 || imageBank > 2 {
            chosen = !valid[0] ? 0 : !valid[1] ? 1 : SUOTAFlash.olderBank(ids[0], ids[1])
        } else {
            chosen = Int(imageBank) - 1
        }
        guard !same[chosen] else { return .failure(Refusal(status: .sameImageError)) }
        let other = 1 - chosen
        let imageID: UInt8 = valid[other] ? (ids[other] == 0xFF ? 0 : ids[other] &+ 1) : 1
        var written = header
        written.validFlag = 0xFF
        written.imageID = imageID
        written.reserved = [UInt8](repeating: 0xFF, count: SUOTAImageHeader.reservedSize)
        flash.banks[chosen] = SUOTAFlash.Bank(header: written, code: stored(block.dropFirst(SUOTAImageHeader.size),
                                                                           at: SUOTAImageHeader.size))
        targetBank = chosen
        let erase = timing.pageErase * SUOTAFlash.sectors(forCodeSize: Int(header.codeSize))
        return .success(erase + timing.writePerByte * block.count)
    }
}
