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
    /// Image bytes delivered.
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
    /// The phases of the (last) image that were completed or found done, in order.
    public var phasesDone: [String] = []
    /// What the stack granted the last connection (nil: the transport cannot tell, or no
    /// connection was made).
    public var link: LinkGrant?

    /// `bytes` over `seconds` (0 when no time passed).
    public var bytesPerSecond: Double { seconds > 0 ? Double(bytes) / seconds : 0 }
}
