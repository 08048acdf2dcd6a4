/// How far a device has got with the image being flashed, from not at all to running it for
/// good. A phase of a procedure says which stage it reaches (`achieves:`); a flash report says
/// which stage the device is in (or which stages it may be in, when a lost answer leaves it open).
///
/// The stages are ordered: each is further along than the one before.
public enum FirmwareStage: String, Sendable, CaseIterable, Comparable {
    /// The device runs its previous firmware; it may hold part of the new image.
    case unchanged
    /// The new image is being written over the previous firmware, which no longer runs: the
    /// device stays in its bootloader until a whole image is written (in-place updates, such as
    /// Silicon Labs' AppLoader writing straight into the application area).
    case overwritten
    /// It holds the whole new image, not active yet; it still runs its previous firmware.
    case received
    /// It is set to boot the new image at its next reset.
    case pending
    /// It runs the new image unconfirmed: at its next reset it goes back to the previous one
    /// unless the new image is confirmed.
    case unconfirmed
    /// It runs the new image for good.
    case installed

    public static func < (lhs: FirmwareStage, rhs: FirmwareStage) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// What the stage means for the device, for messages ("the device ...").
    public var summary: String {
        switch self {
        case .unchanged: return "still runs its previous firmware"
        case .overwritten:
            return "no longer has its previous firmware, which is partly overwritten: it stays in its bootloader "
                + "until a whole image is written"
        case .received: return "holds the whole new image but still runs its previous firmware"
        case .pending: return "is set to boot the new image at its next reset"
        case .unconfirmed:
            return "runs the new image unconfirmed: it goes back to the previous firmware at its next reset unless the "
                + "new image is confirmed"
        case .installed: return "runs the new image"
        }
    }
}
