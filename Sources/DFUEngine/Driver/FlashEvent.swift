import DFUGATT

/// What a flash session reports as it goes, for progress bars and logs.
public enum FlashEvent: Sendable {
    /// What happened to a phase of the procedure.
    public enum PhaseChange: String, Sendable {
        /// The procedure entered the phase.
        case entered
        /// The phase completed.
        case completed
        /// The device had already completed it (found when the procedure asked): skipped.
        case alreadyDone = "already-done"
    }

    /// Scanning for a device that matches the profile, on this transport.
    case scanning(transport: String)
    /// The scan picked this device, for this reason ("... at -48 dBm, the strongest of 3 matching
    /// devices").
    case selected(DeviceAddress, reason: String)
    /// Connecting to the device.
    case connecting(DeviceAddress)
    /// Connected, with the negotiated ATT_MTU.
    case connected(DeviceAddress, mtu: Int)
    /// What the stack granted the connection just made, and what was asked (after `connected`,
    /// on transports that can tell).
    case linkGranted(LinkGrant)
    /// Image `index` (0-based) of `count` starts: its name and size in bytes.
    case imageStarted(name: String, size: Int, index: Int, count: Int)
    /// A phase of the procedure was entered, completed or found done.
    case phase(name: String, PhaseChange)
    /// A procedure run starts moving the current image's data: the device already holds
    /// `offset` bytes of it (a resumed upload), `elapsed` since the session started. Transfer
    /// rates count from here: connecting, discovery and earlier images are not part of them.
    case transferStarted(image: String, offset: Int, total: Int, elapsed: Duration)
    /// `done` of `total` bytes of the current image are on the device.
    case progress(image: String, done: Int, total: Int, elapsed: Duration)
    /// A step is tried again, and why.
    case retrying(String)
    /// Waiting for the device to reboot: to drop the link, then to advertise again.
    case rebooting(String)
    /// The link was lost: resume `attempt` of at most `of` starts, and why it was needed.
    case resuming(attempt: Int, of: Int, reason: String)
    /// The image's procedure ended; `verified` when the device confirmed its checksum.
    case imageFinished(name: String, verified: Bool)
}
