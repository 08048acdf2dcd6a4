/// What a `TransportScheme` is asked to open: the target and what the run needs of the link.
public struct TransportRequest: Sendable, Equatable {
    /// What follows `SCHEME:` in the device string (without `/ADDRESS`).
    public var target: String
    /// The link security the profile asks for (`low`, `medium`, `high`, `fips`), nil for none.
    public var security: String?
    /// A file to record the link's packets in, for transports that can (`hci:` writes btsnoop,
    /// `serial:` and `udp:` write a pcap of the wire's bytes).
    public var traceFile: String?
    /// The profile the run speaks, when there is one: links without GATT (`serial:`, `udp:`)
    /// carry its characteristics as its `links:` entry says.
    public var profile: Profile?

    /// A request for `target`.
    public init(target: String, security: String? = nil, traceFile: String? = nil, profile: Profile? = nil) {
        self.target = target
        self.security = security
        self.traceFile = traceFile
        self.profile = profile
    }

    /// Same target, security and trace file, and a profile from the same file under the same name.
    public static func == (lhs: TransportRequest, rhs: TransportRequest) -> Bool {
        lhs.target == rhs.target && lhs.security == rhs.security && lhs.traceFile == rhs.traceFile
            && lhs.profile?.name == rhs.profile?.name && lhs.profile?.path == rhs.profile?.path
    }
}
