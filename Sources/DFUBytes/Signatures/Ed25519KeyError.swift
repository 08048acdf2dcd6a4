/// Why an Ed25519 key could not be read or made. The caller adds where the key came from
/// (`AuditKeyError` names the file).
public struct Ed25519KeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, and what a key of the right kind looks like.
    public var message: String

    /// An error that says `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
