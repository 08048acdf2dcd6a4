/// How a `DashboardServer` listens and answers.
public struct DashboardServerConfiguration: Sendable {
    /// Where to listen (default `127.0.0.1:8080`; port 0: any free port).
    public var listen: ListenAddress
    /// The line controls' token; nil turns the controls off, and is refused off the loopback.
    public var token: AccessToken?
    /// The line shown when a request names none; nil for every line.
    public var line: String?
    /// The event streams' pace.
    public var streamTiming: DashboardEventStream.Timing
    /// The most connections served at once (each has a thread while open).
    public var connectionLimit: Int
    /// An idle connection is closed after this long.
    public var idleTimeout: Duration
    /// The largest request body read (a control's JSON is far smaller).
    public var maximumBodySize: Int

    /// A configuration with the contract's defaults for what is not given.
    public init(listen: ListenAddress = .standard, token: AccessToken? = nil, line: String? = nil,
                streamTiming: DashboardEventStream.Timing = .standard, connectionLimit: Int = 64,
                idleTimeout: Duration = .seconds(120), maximumBodySize: Int = 16_384) {
        self.listen = listen
        self.token = token
        self.line = line
        self.streamTiming = streamTiming
        self.connectionLimit = connectionLimit
        self.idleTimeout = idleTimeout
        self.maximumBodySize = maximumBodySize
    }

    /// The listening rule: an address other than the loopback needs a token. Throws
    /// `.tokenRequired` saying so.
    public func validate() throws(DashboardServerError) {
        guard listen.isLoopback || token != nil else {
            throw DashboardServerError(.tokenRequired, "refusing to serve the dashboard on \(listen) without a token: "
                                       + "that address is reachable from other machines, and the line controls must be "
                                       + "guarded there; give the server a token, or listen on the loopback (127.0.0.1)")
        }
    }
}
