import DFUBytes

/// An upload into slot 1 in progress (Zephyr's `g_img_mgmt_state`): it survives disconnects
/// and resets, and a first chunk with the same `sha` resumes it.
struct SMPImageUpload: Sendable, Equatable {
    var size: Int
    /// SHA-256 of the whole file as the client announced it (may be empty).
    var sha: [UInt8]
    var received: [UInt8] = []

    var offset: Int { received.count }
    var isComplete: Bool { received.count == size }
}

/// How much of slot 1 is erased, and what erasing costs, under an `EraseMode`.
struct SMPSlotEraser: Sendable, Equatable {
    let mode: SMPServerSettings.EraseMode
    let flash: FlashTiming
    let slotSize: Int
    /// Bytes from the slot's start erased for the current upload.
    private(set) var erasedBytes = 0
    /// Slot 1 was erased by the erase command and nothing has been written since.
    private var blank = false

    init(mode: SMPServerSettings.EraseMode, flash: FlashTiming, slotSize: Int) {
        self.mode = mode
        self.flash = flash
        self.slotSize = slotSize
    }

    /// A new upload of `size` bytes starts over whatever slot 1 held; the time its erase takes
    /// (`slot` mode erases `size` bytes now).
    mutating func startUpload(size: Int) -> Duration {
        guard mode != .none else { return .zero }
        if !blank { erasedBytes = 0 }
        return mode == .slot ? erase(upTo: size) : .zero
    }

    /// Writing `count` bytes at `offset`: the progressive erase of pages it enters, then the write.
    mutating func write(offset: Int, count: Int) -> Duration {
        blank = false
        let eraseTime = mode == .progressive ? erase(upTo: offset + count) : .zero
        return eraseTime + flash.writePerByte * count
    }

    /// A restored upload (`state=`): its first `bytes` are erased already.
    mutating func assumeErased(upTo bytes: Int) {
        erasedBytes = mode == .none ? 0 : min(slotSize, bytes)
        blank = false
    }

    /// The image erase command: the whole slot.
    mutating func eraseSlot() -> Duration {
        guard mode != .none else { return .zero }
        erasedBytes = 0
        let time = erase(upTo: slotSize)
        blank = true
        return time
    }

    /// Erases whole pages up to `end`; the time it takes.
    private mutating func erase(upTo end: Int) -> Duration {
        let pageSize = flash.pageSize
        let target = min(slotSize, (end + pageSize - 1) / pageSize * pageSize)
        guard target > erasedBytes else { return .zero }
        let pages = (target - erasedBytes + pageSize - 1) / pageSize
        erasedBytes = target
        return flash.pageErase * pages
    }
}
