/// Why the dashboard server cannot start, in words that say what failed, where, and what to do.
/// The library names no command-line option; `dfukit station serve` adds its own hint.
public struct DashboardServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure; the command line maps it to an exit status.
    public enum Kind: String, Sendable, Equatable {
        /// The listening address is not `HOST:PORT` with a numeric address (or `localhost`).
        case invalidListenAddress = "invalid listening address"
        /// A listener on an address other than the loopback needs a token.
        case tokenRequired = "token required"
        /// The token is empty, or its file holds none.
        case invalidToken = "invalid token"
        /// The token file cannot be read (missing, permissions).
        case unreadableTokenFile = "unreadable token file"
        /// The socket cannot be bound or the server cannot start (port in use, permission).
        case cannotListen = "cannot listen"
    }

    /// What kind of failure.
    public var kind: Kind
    /// The whole message.
    public var message: String

    /// A failure of `kind`, in the words of `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
