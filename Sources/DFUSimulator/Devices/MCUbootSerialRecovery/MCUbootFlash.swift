/// MCUboot's two slots as flash: what was written to each, and the trailer's wishes for the next
/// boot. Slot 0 holds an image only once it is whole and its SHA256 TLV matches (serial recovery
/// writes it in place, so a cut upload leaves it invalid).
struct MCUbootFlash: Sendable, Equatable {
    var primary: [UInt8]
    var secondary: [UInt8]?
    /// The trailers, as `MCUbootSlots` keeps them while the application runs.
    var pendingSwap: MCUbootSlots.SwapType = .none
    var primaryConfirmed = true

    init(primary: [UInt8]) {
        self.primary = primary
    }

    /// The image in `bytes`, when it parses and its hash matches (what `bootutil_img_validate`
    /// accepts; the simulator checks no signature).
    static func validImage(_ bytes: [UInt8]?) -> SMPSlotImage? {
        guard let bytes, let image = SMPSlotImage(bytes: bytes), image.isIntact else { return nil }
        return image
    }

    /// The slots as the application's SMP server sees them; nil when slot 0 holds no valid image.
    var slots: MCUbootSlots? {
        guard let primary = Self.validImage(primary) else { return nil }
        return MCUbootSlots(primary: primary, secondary: Self.validImage(secondary), pendingSwap: pendingSwap,
                            primaryConfirmed: primaryConfirmed)
    }

    /// The flash after the application's server changed `slots`.
    mutating func take(_ slots: MCUbootSlots) {
        primary = slots.primary.bytes
        secondary = slots.secondary?.bytes
        pendingSwap = slots.pendingSwap
        primaryConfirmed = slots.primaryConfirmed
    }
}
