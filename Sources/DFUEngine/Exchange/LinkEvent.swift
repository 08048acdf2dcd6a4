/// What the driver tells a link-level state machine (`CommandExchange`, `StreamTransfer`)
/// after performing its last action.
public enum LinkEvent {
    case begin(now: Duration)
    /// The write was acknowledged (with response) or accepted by the transport (without).
    case writeAccepted(now: Duration)
    /// A notification arrived on the characteristic with this profile role name ("" if none).
    case notification(characteristic: String, value: [UInt8], now: Duration)
    case deadlinePassed(now: Duration)
}
