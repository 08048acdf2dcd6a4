import DFUGATT

/// What a flash session reports as it goes, for progress bars and logs.
public enum FlashEvent: Sendable {
    case scanning(transport: String)
    case connecting(DeviceAddress)
    case connected(DeviceAddress, mtu: Int)
    case imageStarted(name: String, size: Int, index: Int, count: Int)
    /// `done` of `total` bytes of the current image are on the device.
    case progress(image: String, done: Int, total: Int, elapsed: Duration)
    case retrying(String)
    case resuming(attempt: Int, of: Int, reason: String)
    case imageFinished(name: String, verified: Bool)
}
