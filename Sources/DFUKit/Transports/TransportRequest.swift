/// What a `TransportScheme` is asked to open: the target and what the run needs of the link.
public struct TransportRequest: Sendable, Equatable {
    /// What follows `SCHEME:` in the device string (without `/ADDRESS`).
    public var target: String
    /// The link security the profile asks for (`low`, `medium`, `high`, `fips`), nil for none.
    public var security: String?
    /// A file to record the link's packets in, for transports that can (`hci:` writes btsnoop).
    public var traceFile: String?

    /// A request for `target`.
    public init(target: String, security: String? = nil, traceFile: String? = nil) {
        self.target = target
        self.security = security
        self.traceFile = traceFile
    }
}
