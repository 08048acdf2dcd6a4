import DFUBytes

/// Group 1 (image management), as Zephyr's `img_mgmt` with MCUboot in swap mode.
extension SMPServer {
    /// Command 0 read: `{images: [...], splitStatus: 0}`.
    func imageStateReply() -> SMPReply {
        .success([CBORMapEntry("images", slots.imageList()), CBORMapEntry("splitStatus", 0)])
    }

    /// Command 0 write: `{hash, confirm: false}` marks slot 1 for a trial boot,
    /// `{hash, confirm: true}` for good; `{confirm: true}` (or the running image's hash)
    /// confirms the running image. Answers the image list. As Zephyr's
    /// `img_mgmt_set_next_boot_slot` (img_mgmt_state.c): testing the running image is refused
    /// (33), and while a test swap is pending only that same test may be asked again; any
    /// other change, a confirm included, is refused with 28 (IMAGE_ALREADY_PENDING).
    mutating func writeImageState(_ body: CBORValue) -> SMPHandled {
        let confirm = body["confirm"]?.booleanValue ?? false
        let slot: Int
        if let hashValue = body["hash"] {
            guard let hash = hashValue.bytesValue, hash.count == 32 else {
                return SMPHandled(reply: .imageFailure(.invalidHash))
            }
            guard let found = slots.slot(withHash: hash) else {
                return SMPHandled(reply: .imageFailure(.hashNotFound))
            }
            slot = found
        } else {
            guard confirm else { return SMPHandled(reply: .imageFailure(.invalidHash)) }
            slot = 0
        }
        if slot == 0, !confirm { return SMPHandled(reply: .imageFailure(.settingTestToActiveDenied)) }
        if slots.swapType == .test, slot == 0 || confirm {
            return SMPHandled(reply: .imageFailure(.imageAlreadyPending))
        }
        if slot == 0 {
            slots.confirmPrimary()
        } else {
            slots.markSecondaryPending(permanent: confirm)
        }
        // Writing the trailer: one flash write, about a page's worth of time.
        return SMPHandled(reply: imageStateReply(), cost: settings.flash.writePerByte * 16)
    }

    /// Command 1: `{image, len, off, sha, data, upgrade}` -> `{rc: 0, off}` (+ `match` at the end).
    mutating func uploadChunk(_ body: CBORValue) -> SMPHandled {
        guard let offset = body["off"]?.integerValue, offset >= 0 else {
            return SMPHandled(reply: .imageFailure(.invalidOffset))
        }
        guard let data = body["data"]?.bytesValue else { return SMPHandled(reply: .failure(.invalidArgument)) }
        if offset == 0 {
            let image = body["image"]?.integerValue ?? 0
            guard image == 0 else { return failUpload(.noFreeSlot) }
            return firstChunk(body, data)
        }
        guard let current = upload, offset == current.offset else {
            // Not where the device is: drop the data and tell the client where to continue.
            return SMPHandled(reply: uploadReply(offset: upload?.offset ?? 0, match: nil))
        }
        guard offset + data.count <= current.size else { return failUpload(.dataOverrun) }
        return write(data)
    }

    private mutating func firstChunk(_ body: CBORValue, _ data: [UInt8]) -> SMPHandled {
        guard data.count >= 32 else { return failUpload(.invalidImageHeader) }
        guard let size = body["len"]?.integerValue, size >= 0 else { return failUpload(.invalidLength) }
        guard SMPSlotImage.startsWithHeaderMagic(data) else { return failUpload(.invalidImageHeaderMagic) }
        let sha = body["sha"]?.bytesValue ?? []
        guard sha.count <= 32 else { return failUpload(.invalidHash) }
        if !sha.isEmpty, let current = upload, current.sha == sha {
            // The same file again: resume where the device is.
            return SMPHandled(reply: uploadReply(offset: current.offset, match: nil))
        }
        guard !slots.secondaryInUse else { return failUpload(.noFreeSlot) }
        guard size <= settings.slotSize else { return failUpload(.imageTooLarge) }
        if body["upgrade"]?.booleanValue == true, let version = SMPSlotImage.headerVersion(data),
           version <= slots.primary.version {
            return failUpload(.currentVersionIsNewer)
        }
        guard data.count <= size else { return failUpload(.dataOverrun) }
        upload = SMPImageUpload(size: size, sha: sha)
        slots.clearSecondary()
        let eraseTime = eraser.startUpload(size: size)
        var handled = write(data)
        handled.cost += eraseTime
        return handled
    }

    /// Stores `data` at the upload's offset; on the last byte, slot 1 holds the image.
    private mutating func write(_ data: [UInt8]) -> SMPHandled {
        guard var current = upload else { return failUpload(.unknown) }
        let cost = eraser.write(offset: current.offset, count: data.count)
        current.received += data
        var match: Bool?
        if current.isComplete {
            if !current.sha.isEmpty { match = SHA256.digest(current.received) == current.sha }
            slots.storeSecondary(SMPSlotImage(bytes: current.received))
            upload = nil
        } else {
            upload = current
        }
        return SMPHandled(reply: uploadReply(offset: current.offset, match: match), cost: cost)
    }

    /// Zephyr forgets the upload on any error.
    private mutating func failUpload(_ code: ImageManagementReturnCode) -> SMPHandled {
        upload = nil
        return SMPHandled(reply: .imageFailure(code))
    }

    private func uploadReply(offset: Int, match: Bool?) -> SMPReply {
        var entries = [CBORMapEntry("rc", 0), CBORMapEntry("off", CBORValue(integer: offset))]
        if let match { entries.append(CBORMapEntry("match", .boolean(match))) }
        return .success(entries)
    }

    /// Command 5: erases slot 1 (refused while the next boot needs it) -> `{rc: 0}`.
    mutating func eraseSlot() -> SMPHandled {
        guard !slots.secondaryInUse else { return SMPHandled(reply: .imageFailure(.noFreeSlot)) }
        upload = nil
        slots.clearSecondary()
        return SMPHandled(reply: .success([CBORMapEntry("rc", 0)]), cost: eraser.eraseSlot())
    }
}
