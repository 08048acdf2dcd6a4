import DFUBytes

/// MCUboot's serial recovery as a pure state machine: one SMP packet in, its answer out
/// (`boot_serial_input` and its handlers in mcu-tools/mcuboot `boot/boot_serial/src/boot_serial.c`).
///
/// - Dropped unanswered: fewer than 8 bytes, an operation other than read (0) or write (2), or a
///   body longer than the header's length says.
/// - Group 1 (image): 0 read = image list `{images: [{slot, hash, version}, ...]}` of every slot
///   that holds a valid image (`bs_list`; `hash` with `CONFIG_BOOT_SERIAL_IMG_GRP_HASH`, the
///   state flags only with `..._IMAGE_STATE`), 0 write = image state (`bs_set`, with
///   `..._IMAGE_STATE`, else `{rc: 8}`), 1 = upload (`bs_upload`), others `{rc: 8}`.
/// - Group 0 (OS): 0 echo (`CONFIG_BOOT_MGMT_ECHO`, else `{rc: 8}`), 1 console echo control
///   `{rc: 0}`, 5 reset `{rc: 0}` then the reboot 250 ms later, 6 parameters
///   (`CONFIG_BOOT_MGMT_MCUMGR_PARAMS`, else `{rc: 8}`), others `{rc: 8}`; other groups `{rc: 8}`.
/// - Upload straight into slot 0 (`flash_area_id_from_multi_image_slot(img_num, 0)`): a chunk at
///   offset 0 starts over (its `image` picks the image, `len` the size, at most the slot); a
///   chunk elsewhere than expected is answered `{rc: 0, off: expected}` unwritten; one past the
///   size is `{rc: 3}`. Each chunk is written up to the flash write block, its tail asked for
///   again (`rem_bytes`) unless it ends the image. Answers `{rc: 0, off}`; errors `{rc: N}`.
/// - Every answer is CBOR with indefinite-length maps and lists (zcbor, `ZcborEncoding`), in a
///   header that echoes the request's with the operation plus one and flags 0; errors are
///   `{rc}` in both SMP versions (MCUboot has no `err` map).
struct MCUbootSerialRecovery: Sendable {
    let settings: MCUbootSerialRecoverySettings
    var flash: MCUbootFlash
    /// The upload in progress (`bs_upload`'s statics): the image number, its size, the next offset.
    private(set) var upload: Upload?
    /// Slot 0's (or 1's) bytes up to here are erased for this upload.
    private var notYetErased = 0

    struct Upload: Sendable, Equatable {
        var image: Int
        var size: Int
        var offset: Int
        var slot: Int
    }

    /// What one request produced.
    struct Outcome: Sendable, Equatable {
        var response: [UInt8]
        /// Device time before the answer is out.
        var cost: Duration
        /// The device reboots `resetWait` after the answer.
        var resets = false
    }

    init(settings: MCUbootSerialRecoverySettings, flash: MCUbootFlash) {
        self.settings = settings
        self.flash = flash
    }

    static let osGroup: UInt16 = 0, imageGroup: UInt16 = 1

    /// The answer to `packet`; nil when MCUboot drops it unanswered.
    mutating func handle(_ packet: [UInt8]) -> Outcome? {
        guard packet.count >= SMPHeader.size, let header = SMPHeader(decoding: packet),
              header.operation == .read || header.operation == .write,
              header.length >= packet.count - SMPHeader.size else { return nil }
        let body = Array(packet[SMPHeader.size...])
        var cost = settings.requestOverhead
        var resets = false
        let answer: [UInt8]
        switch (header.group, header.command) {
        case (Self.imageGroup, 0):
            if header.operation == .read {
                answer = imageList()
            } else if settings.imageState {
                answer = setImageState(body)
                cost += settings.flash.writePerByte * 16
            } else {
                answer = ZcborEncoding.returnCode(MCUmgrReturnCode.notSupported.rawValue)
            }
        case (Self.imageGroup, 1):
            let (written, time) = uploadChunk(body)
            answer = written
            cost += time
        case (Self.osGroup, 0) where settings.echo:
            answer = echo(body)
        case (Self.osGroup, 1):
            answer = ZcborEncoding.returnCode(0)
        case (Self.osGroup, 5):
            answer = ZcborEncoding.returnCode(0)
            resets = true
        case (Self.osGroup, 6) where settings.mcumgrParameters:
            answer = ZcborEncoding.encode(.map([("buf_size", .value(CBORValue(integer: settings.maximumReceiveSize))),
                                                ("buf_count", .value(1))]))
        default:
            answer = ZcborEncoding.returnCode(MCUmgrReturnCode.notSupported.rawValue)
        }
        return Outcome(response: Self.responseHeader(packet, length: answer.count) + answer, cost: cost, resets: resets)
    }

    /// The request's header with the operation plus one, flags 0 and the answer's length
    /// (`boot_serial_output`: `nh_op++`, `nh_flags = 0`, `nh_len`).
    static func responseHeader(_ request: [UInt8], length: Int) -> [UInt8] {
        [(request[0] & ~0x07) | ((request[0] & 0x07) + 1), 0, UInt8(truncatingIfNeeded: length >> 8),
         UInt8(truncatingIfNeeded: length), request[4], request[5], request[6], request[7]]
    }

    /// RAM is lost: the upload's statics go.
    mutating func reset() {
        upload = nil
        notYetErased = 0
    }

    // MARK: - Image group

    /// `bs_list`: each slot holding a valid image, slot 0 first.
    func imageList() -> [UInt8] {
        var entries: [ZcborEncoding.Item] = []
        let slots = flash.slots
        for (slot, bytes) in [(0, flash.primary), (1, flash.secondary)] {
            guard let image = MCUbootFlash.validImage(bytes) else { continue }
            var map: [(String, ZcborEncoding.Item)] = []
            if settings.imageState {
                let flags = slots?.flags(slot: slot) ?? MCUbootSlots.Flags()
                if image.bootable { map.append(("bootable", .value(.boolean(true)))) }
                if flags.confirmed { map.append(("confirmed", .value(.boolean(true)))) }
                if flags.active { map.append(("active", .value(.boolean(true)))) }
                if flags.pending { map.append(("pending", .value(.boolean(true)))) }
                if flags.permanent { map.append(("permanent", .value(.boolean(true)))) }
            }
            map.append(("slot", .value(CBORValue(integer: slot))))
            if settings.imageListHash { map.append(("hash", .value(.bytes(image.hash)))) }
            map.append(("version", .value(.text(image.versionString))))
            entries.append(.map(map))
        }
        return ZcborEncoding.encode(.map([("images", .list(entries))]))
    }

    /// `bs_set`: `{confirm, hash}`; a hash must name a slot's image; then slot 1 is marked for
    /// the next boot (`boot_set_pending_multi`), for good when `confirm`. Answers the list.
    private mutating func setImageState(_ body: [UInt8]) -> [UInt8] {
        guard let map = try? CBOR.decode(body), map.mapEntries != nil else {
            return ZcborEncoding.returnCode(MCUmgrReturnCode.invalidArgument.rawValue)
        }
        let confirm = map["confirm"]?.booleanValue ?? false
        if let hashValue = map["hash"] {
            guard let hash = hashValue.bytesValue, hash.count == 32 || hash.isEmpty else {
                return ZcborEncoding.returnCode(MCUmgrReturnCode.invalidArgument.rawValue)
            }
            if !hash.isEmpty, MCUbootFlash.validImage(flash.primary)?.hash != hash,
               MCUbootFlash.validImage(flash.secondary)?.hash != hash {
                return ZcborEncoding.returnCode(MCUmgrReturnCode.noEntry.rawValue)
            }
        }
        if flash.secondary != nil { flash.pendingSwap = confirm ? .permanent : .test }
        return imageList()
    }

    /// `bs_upload`; the answer and the flash time it took.
    private mutating func uploadChunk(_ body: [UInt8]) -> ([UInt8], Duration) {
        let invalid = (ZcborEncoding.returnCode(MCUmgrReturnCode.invalidArgument.rawValue), Duration.zero)
        guard let map = try? CBOR.decode(body), map.mapEntries != nil else { return invalid }
        // zcbor_map_decode_bulk: a known key of the wrong type fails the whole decode.
        func field(_ key: String) -> (present: Bool, integer: Int?) {
            guard let value = map[key] else { return (false, nil) }
            return (true, value.integerValue.flatMap { $0 >= 0 ? $0 : nil })
        }
        let image = field("image"), length = field("len"), offset = field("off")
        if (image.present && image.integer == nil) || (length.present && length.integer == nil)
            || (offset.present && offset.integer == nil) || (map["data"] != nil && map["data"]?.bytesValue == nil) {
            return invalid
        }
        guard let chunkOffset = offset.integer, var data = map["data"]?.bytesValue else { return invalid }

        var current = upload ?? Upload(image: 0, size: 0, offset: 0, slot: 0)
        if chunkOffset == 0 { current.image = image.integer ?? 0 }
        guard let slot = slotOfUpload(image: current.image) else {
            upload = current  // the image number is kept (a static), the flash area fails to open
            return invalid
        }
        var time = Duration.zero
        if chunkOffset == 0 {
            // A chunk at offset 0 starts over, whatever came before.
            current.offset = 0
            upload = current
            guard let size = length.integer, size <= settings.slotSize else { return invalid }
            current = Upload(image: current.image, size: size, offset: 0, slot: slot)
            notYetErased = 0
            if !settings.eraseProgressively { time += erase(upTo: settings.slotSize, slot: slot) }
            write([], at: 0, slot: slot, startsOver: true)
        } else if chunkOffset != current.offset {
            // Not where MCUboot is: "pretend success" and ask for its offset.
            return (uploadAnswer(offset: current.offset), .zero)
        } else if current.offset + data.count > current.size {
            return invalid
        }
        if settings.eraseProgressively, !data.isEmpty {
            time += erase(upTo: current.offset + data.count, slot: slot)
        }
        let alignment = max(1, settings.writeAlignment)
        let tail = data.count % alignment
        if current.offset + data.count < current.size, tail != 0 { data.removeLast(tail) }
        write(data, at: current.offset, slot: slot, startsOver: false)
        time += settings.flash.writePerByte * data.count
        current.offset += data.count
        if current.offset == current.size, settings.eraseProgressively {
            time += settings.flash.pageErase  // the trailer's sector, erased for the next boot
        }
        upload = current
        return (uploadAnswer(offset: current.offset), time)
    }

    /// The slot an upload of `image` writes: slot 0 of image 0, or (direct upload) 0/1 for slot
    /// 0 and 2 for slot 1; nil when there is no such flash area (a one-image build).
    private func slotOfUpload(image: Int) -> Int? {
        if settings.directUpload {
            switch image {
            case 0, 1: return 0
            case 2: return 1
            default: return nil
            }
        }
        return image == 0 ? 0 : nil
    }

    private func uploadAnswer(offset: Int) -> [UInt8] {
        ZcborEncoding.encode(.map([("rc", .value(0)), ("off", .value(CBORValue(integer: offset)))]))
    }

    /// Stores `data` at `offset` of `slot`; `startsOver` leaves the slot's header erased.
    private mutating func write(_ data: [UInt8], at offset: Int, slot: Int, startsOver: Bool) {
        var bytes = slot == 0 ? flash.primary : (flash.secondary ?? [])
        if startsOver {
            bytes = []
        } else {
            if bytes.count > offset { bytes.removeSubrange(offset...) }
            bytes += data
        }
        if slot == 0 { flash.primary = bytes } else { flash.secondary = bytes }
        if slot == 1 { flash.pendingSwap = .none }
    }

    /// Erases whole pages up to `end` (`erase_range`); the time it takes.
    private mutating func erase(upTo end: Int, slot: Int) -> Duration {
        let pageSize = settings.flash.pageSize
        let target = min(settings.slotSize, (end + pageSize - 1) / pageSize * pageSize)
        guard target > notYetErased else { return .zero }
        let pages = (target - notYetErased + pageSize - 1) / pageSize
        notYetErased = target
        return settings.flash.pageErase * pages
    }

    // MARK: - OS group

    /// `bs_echo`: `{d: text}` -> `{r: text}`; anything else `{rc: 3}`.
    private func echo(_ body: [UInt8]) -> [UInt8] {
        guard let map = try? CBOR.decode(body), let text = map["d"]?.textValue else {
            return ZcborEncoding.returnCode(MCUmgrReturnCode.invalidArgument.rawValue)
        }
        return ZcborEncoding.encode(.map([("r", .value(.text(text)))]))
    }
}
