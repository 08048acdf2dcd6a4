import DFUGATT
import DFUProfile

/// How a flash ended.
public struct FlashReport: Sendable {
    /// How the session ended; the raw value is what `--json` prints.
    public enum Status: String, Sendable {
        /// Every image was accepted and the device confirmed its checksums.
        case verified
        /// The procedure ran to its end but no step compared the device's checksums.
        case completed
        /// It stopped on an error: see `error` and `deviceHolds`.
        case failed
    }

    /// How it ended.
    public var status: Status
    /// The profile's name.
    public var profile: String
    /// The transport's name, e.g. `sim:vendor-ctrlpt`.
    public var device: String
    /// The device's address, once one was chosen.
    public var address: String?
    /// Image bytes this command moved onto the device: the data its transfers (chunk loops,
    /// streams, windowed and device-driven loops that report progress) got the device to hold,
    /// counting neither what it held already (`bytesAlreadyOnDevice`) nor what a transfer adds
    /// around the image (a trailing checksum byte). Data the device lost and was sent again
    /// counts again. `bytesPerSecond` is measured on it.
    public var bytes: Int
    /// On the transport's clock (simulated seconds on `sim:`).
    public var seconds: Double
    /// Steps tried again (`retry` blocks and command attempts).
    public var retries: Int
    /// Reconnections after a lost link that went on with the update.
    public var resumes: Int
    /// Why it failed; nil unless `status` is `.failed`.
    public var error: FlashError?
    /// The transfer phase alone (from the first step that moved image data to the last
    /// progress): what link efficiency is measured on, without connection set-up and the
    /// steps after the upload.
    public var transferSeconds: Double?
    /// What the device holds of the (last) image: one stage, or two when a lost answer leaves
    /// it open; empty when the profile declares no phases.
    public var deviceHolds: [FirmwareStage] = []
    /// What proved the stage in `deviceHolds`, in words: what the device was observed to run or
    /// hold after the update (the version it reports before and after its reboot, its image
    /// list, its own check of the image), or that the protocol offers no such proof ("the device
    /// gives no way to tell which image runs"). Nil when nothing was sent or no phase ran.
    public var evidence: String?
    /// The phases of the (last) image that were completed or found done, in order.
    public var phasesDone: [String] = []
    /// What the stack granted the last connection (nil: the transport cannot tell, or no
    /// connection was made).
    public var link: LinkGrant?

    /// Image bytes the device held before this command moved any: where a resumed upload
    /// started, or the whole image when none of it was sent because the device had it.
    public var bytesAlreadyOnDevice = 0
    /// Why no data of an image was sent although the update went on (the device already held
    /// it); nil when every image was sent.
    public var notSent: String?

    /// `bytes` over `seconds` (0 when no time passed).
    public var bytesPerSecond: Double { seconds > 0 ? Double(bytes) / seconds : 0 }
}
