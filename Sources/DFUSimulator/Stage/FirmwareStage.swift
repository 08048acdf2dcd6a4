/// How far a simulated device got with an image, for fault matrices: after a fault, a test asks
/// the device what it holds, and compares it with what the client reported.
public enum FirmwareStage: String, Sendable, CaseIterable, Comparable {
    /// Runs its previous firmware; may hold part of the new image.
    case unchanged
    /// Its previous firmware is partly overwritten by the new image: it stays in its
    /// bootloader until a whole image is written.
    case overwritten
    /// Holds the whole new image, not activated.
    case received
    /// Set to boot the new image at its next reset (or activating it now).
    case pending
    /// Runs the new image unconfirmed: it reverts at the next reset.
    case unconfirmed
    /// Runs the new image for good.
    case installed

    public static func < (lhs: FirmwareStage, rhs: FirmwareStage) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A device's stage for an image and one line saying why, e.g. "runs 1.0.0; slot 1 holds
/// 40000 of 41623 bytes of the new image".
public struct FirmwareStageReport: Sendable, Equatable, CustomStringConvertible {
    /// How far the device got.
    public var stage: FirmwareStage
    /// Why, in words: what it runs and what its slots or banks hold.
    public var summary: String

    /// A report of `stage`, explained by `summary`.
    public init(_ stage: FirmwareStage, _ summary: String) {
        self.stage = stage
        self.summary = summary
    }

    public var description: String { "\(stage.rawValue): \(summary)" }
}

/// The image a fault matrix asks about: its bytes (the file sent: an MCUboot image, a Nordic
/// `.bin`, a vendor image) and, where relevant, its MCUboot image hash (the SHA256 TLV; nil:
/// read from the bytes).
public struct TargetFirmware: Sendable, Equatable {
    /// The image file's bytes, as sent.
    public var bytes: [UInt8]
    /// Its MCUboot image hash; nil: read from `bytes`.
    public var imageHash: [UInt8]?

    /// The target image `bytes`.
    public init(bytes: [UInt8], imageHash: [UInt8]? = nil) {
        self.bytes = bytes
        self.imageHash = imageHash
    }

    /// "holds 40000 of 41623 bytes of the new image" when `held` starts the target; nil when
    /// `held` is empty or not a prefix of it.
    func partial(_ held: [UInt8]) -> String? {
        guard !held.isEmpty, held.count < bytes.count, bytes.starts(with: held) else { return nil }
        return "holds \(held.count) of \(bytes.count) bytes of the new image"
    }
}

/// A simulated device that can say what it holds of an image (every `sim:` device does).
public protocol FirmwareStageReporting: SimulatedPeripheral {
    /// How far the device got with `target`, from what it holds now.
    func stage(of target: TargetFirmware) -> FirmwareStageReport
}
