import DFUGATT

/// What a flash session reports as it goes, for progress bars and logs.
public enum FlashEvent: Sendable {
    /// What happened to a phase of the procedure.
    public enum PhaseChange: String, Sendable {
        case entered
        case completed
        /// The device had already completed it (found when the procedure asked): skipped.
        case alreadyDone = "already-done"
    }

    case scanning(transport: String)
    case connecting(DeviceAddress)
    case connected(DeviceAddress, mtu: Int)
    /// What the stack granted the connection just made, and what was asked (after `connected`,
    /// on transports that can tell).
    case linkGranted(LinkGrant)
    case imageStarted(name: String, size: Int, index: Int, count: Int)
    case phase(name: String, PhaseChange)
    /// A procedure run starts moving the current image's data: the device already holds
    /// `offset` bytes of it (a resumed upload), `elapsed` since the session started. Transfer
    /// rates count from here: connecting, discovery and earlier images are not part of them.
    case transferStarted(image: String, offset: Int, total: Int, elapsed: Duration)
    /// `done` of `total` bytes of the current image are on the device.
    case progress(image: String, done: Int, total: Int, elapsed: Duration)
    case retrying(String)
    /// Waiting for the device to reboot: to drop the link, then to advertise again.
    case rebooting(String)
    case resuming(attempt: Int, of: Int, reason: String)
    case imageFinished(name: String, verified: Bool)
}
