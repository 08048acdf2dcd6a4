import DFUBytes

/// One image's two MCUboot slots in swap mode, and what MCUboot does with them at boot.
///
/// Slot 0 runs; an upload goes to slot 1. `test` marks slot 1 for one trial boot: the boot
/// swaps the slots and the new image runs unconfirmed; unless it is confirmed before the next
/// boot, MCUboot swaps back (revert). `permanent` swaps for good.
public struct MCUbootSlots: Sendable, Equatable {
    /// What the trailer of slot 1 (or an unconfirmed slot 0) asks the next boot to do
    /// (`img_mgmt_swap_type`).
    package enum SwapType: Sendable, Equatable {
        case none, test, permanent, revert
    }

    /// Per-slot flags of the image list.
    public struct Flags: Sendable, Equatable {
        /// The slot is marked to boot next.
        public var pending = false
        /// The image is confirmed: MCUboot keeps it.
        public var confirmed = false
        /// The image runs now.
        public var active = false
        /// The swap to it is for good (no revert).
        public var permanent = false
    }

    package private(set) var primary: SMPSlotImage
    /// The image in slot 1, if any.
    public private(set) var secondary: SMPSlotImage?
    /// slot 1 is marked for the next boot.
    private(set) var pendingSwap: SwapType = .none
    /// slot 0's `image_ok`: false after a trial swap until confirmed.
    private(set) var primaryConfirmed = true

    /// Slots with `primary` in slot 0, confirmed and running, and slot 1 empty.
    public init(primary: SMPSlotImage) {
        self.primary = primary
    }

    /// Slots as a state file describes them (`sim:mcumgr-smp?state=FILE`).
    init(primary: SMPSlotImage, secondary: SMPSlotImage?, pendingSwap: SwapType, primaryConfirmed: Bool) {
        self.primary = primary
        self.secondary = secondary
        self.pendingSwap = pendingSwap
        self.primaryConfirmed = primaryConfirmed
    }

    package var swapType: SwapType {
        if pendingSwap != .none { return pendingSwap }
        return primaryConfirmed ? .none : .revert
    }

    /// Slot 1 holds something the next boot needs (a marked image or the fallback of a trial
    /// run): uploads and erases must not touch it.
    package var secondaryInUse: Bool { swapType != .none }

    /// Zephyr's `img_mgmt_state_flags`.
    public func flags(slot: Int) -> Flags {
        var flags = Flags()
        switch swapType {
        case .none:
            if slot == 0 { flags.confirmed = true }
        case .test:
            if slot == 0 { flags.confirmed = true } else { flags.pending = true }
        case .permanent:
            if slot == 0 { flags.confirmed = true } else { flags.pending = true; flags.permanent = true }
        case .revert:
            if slot == 1 { flags.confirmed = true }
        }
        if slot == 0 { flags.active = true }
        return flags
    }

    /// The slot holding an image with this SHA256 TLV.
    public func slot(withHash hash: [UInt8]) -> Int? {
        if primary.hash == hash { return 0 }
        if secondary?.hash == hash { return 1 }
        return nil
    }

    /// Slot 1 is being rewritten (an upload started, or an erase).
    mutating func clearSecondary() {
        secondary = nil
        pendingSwap = .none
    }

    mutating func storeSecondary(_ image: SMPSlotImage?) {
        secondary = image
        pendingSwap = .none
    }

    /// Marks slot 1 for the next boot, once (`permanent` false) or for good.
    mutating func markSecondaryPending(permanent: Bool) {
        pendingSwap = permanent ? .permanent : .test
    }

    /// The running image is confirmed: no revert at the next boot.
    mutating func confirmPrimary() {
        primaryConfirmed = true
    }

    /// What MCUboot did at a boot, for the time it took.
    package enum BootAction: Sendable, Equatable {
        case none
        /// Swapped the slots (a test, permanent or revert swap): the flash work covers the
        /// larger of the two images (`find_last_idx` over the copy size in swap_move.c).
        case swapped(bytes: Int)
        /// The marked image failed validation: erased (`boot_scramble_slot`), nothing swapped.
        case erasedInvalidImage(bytes: Int)
    }

    /// MCUboot at boot: swaps as the trailers ask. An image whose SHA256 TLV does not match is
    /// not booted: MCUboot erases it and keeps the running one (loader.c `boot_validate_slot`).
    mutating func boot() -> BootAction {
        switch swapType {
        case .none:
            return .none
        case .test, .permanent:
            guard let candidate = secondary, candidate.isIntact, candidate.bootable else {
                let size = secondary?.bytes.count ?? 0
                clearSecondary()
                return .erasedInvalidImage(bytes: size)
            }
            let permanent = swapType == .permanent
            let size = max(primary.bytes.count, candidate.bytes.count)
            secondary = primary
            primary = candidate
            pendingSwap = .none
            primaryConfirmed = permanent
            return .swapped(bytes: size)
        case .revert:
            guard let fallback = secondary else {
                primaryConfirmed = true
                return .none
            }
            let size = max(primary.bytes.count, fallback.bytes.count)
            secondary = primary
            primary = fallback
            primaryConfirmed = true
            return .swapped(bytes: size)
        }
    }

    /// The `images` array of an image state answer, as Zephyr lists one updatable image.
    func imageList() -> CBORValue {
        var entries: [CBORValue] = [Self.entry(slot: 0, image: primary, flags: flags(slot: 0))]
        if let secondary {
            entries.append(Self.entry(slot: 1, image: secondary, flags: flags(slot: 1)))
        }
        return .array(entries)
    }

    private static func entry(slot: Int, image: SMPSlotImage, flags: Flags) -> CBORValue {
        .textMap([
            "slot": CBORValue(integer: slot),
            "version": .text(image.versionString),
            "hash": .bytes(image.hash),
            "bootable": .boolean(image.bootable),
            "pending": .boolean(flags.pending),
            "confirmed": .boolean(flags.confirmed),
            "active": .boolean(flags.active),
            "permanent": .boolean(flags.permanent),
        ])
    }
}
