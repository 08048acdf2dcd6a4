/// What the driver tells a link-level machine (`CommandExchange`, `StreamTransfer`,
/// `WindowedTransfer`) after performing its last action.
public enum LinkEvent: Equatable, Sendable {
    case begin(now: Duration)
    /// The write was acknowledged (with response) or accepted by the transport (without).
    case writeAccepted(now: Duration)
    /// A notification (or indication) arrived from the characteristic with this value handle.
    case notification(valueHandle: UInt16, value: [UInt8], now: Duration)
    case deadlinePassed(now: Duration)
}
