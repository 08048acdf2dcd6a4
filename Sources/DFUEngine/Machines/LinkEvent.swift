/// What the driver tells a link-level machine (`CommandExchange`, `StreamTransfer`,
/// `WindowedTransfer`) after performing its last action.
public enum LinkEvent: Equatable, Sendable {
    /// The machine starts, at `now` on the link clock.
    case begin(now: Duration)
    /// The write was acknowledged (with response) or accepted by the transport (without).
    case writeAccepted(now: Duration)
    /// A notification (or indication) arrived from the characteristic with this value handle.
    case notification(valueHandle: UInt16, value: [UInt8], now: Duration)
    /// The deadline of its last wait passed without a notification.
    case deadlinePassed(now: Duration)
}
