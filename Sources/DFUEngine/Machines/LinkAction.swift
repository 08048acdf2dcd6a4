/// What a link-level machine asks the driver to do next.
public enum LinkAction<Output> {
    /// Write these bytes (one ATT write) to the target.
    case write([UInt8], to: WriteTarget)
    /// Wait for the next notification, or for the deadline to pass.
    case awaitNotification(until: Duration)
    /// The machine is done; this is what it learned.
    case completed(Output)
    /// The machine stopped: the device refused, did not answer, or answered what the profile
    /// does not accept.
    case failed(ExchangeFailure)
}

extension LinkAction: Equatable where Output: Equatable {}
extension LinkAction: Sendable where Output: Sendable {}
