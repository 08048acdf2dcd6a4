/// Why a ledger call failed, with the ledger it was made on and the operation that failed.
///
/// `description` reads like
/// `ledger sqlite:/var/line/ledger.db: claim device C0:FF:EE:00:00:01 for package 3f2a…: database is locked (SQLITE_BUSY 5)`.
/// Passwords in PostgreSQL URLs are never printed.
public struct LedgerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; command-line tools map it to an exit status.
    public enum Kind: String, Sendable, Equatable {
        /// The `--ledger` text is not a ledger URL (`sqlite:PATH` or `postgresql://...`).
        case invalidURL = "invalid ledger URL"
        /// The database could not be opened or reached (missing file, permissions, server down,
        /// authentication refused).
        case cannotOpen = "cannot open"
        /// The database is reachable but holds no DFUKit ledger, a damaged one, or one written by a
        /// newer DFUKit (its schema version is higher than this build knows).
        case notALedger = "not a ledger"
        /// A statement failed (constraint, disk full, I/O error, lock timeout, lost connection).
        case statementFailed = "statement failed"
        /// A claim this station held was taken over by another station after its lease ran out.
        case claimLost = "claim lost"
        /// An argument was refused before anything was written (an empty device address, ...).
        case invalidArgument = "invalid argument"
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The ledger, as `sqlite:PATH` or `postgresql://user@host:port/db` (no password).
    public var ledger: String
    /// What was being done, e.g. "claim device C0:FF:EE:00:00:01 for package 3f2a9c1d".
    public var operation: String
    /// The database's own words, or ours.
    public var message: String
    /// The database's error code: an SQLite result code name (`SQLITE_BUSY 5`) or a PostgreSQL
    /// SQLSTATE (`40P01`), when there is one.
    public var code: String?

    /// An error of `kind` on `ledger` while doing `operation`, in the database's words `message`.
    public init(_ kind: Kind, ledger: String, operation: String, message: String, code: String? = nil) {
        self.kind = kind
        self.ledger = ledger
        self.operation = operation
        self.message = message
        self.code = code
    }

    public var description: String {
        var text = "ledger \(ledger)"
        if !operation.isEmpty { text += ": \(operation)" }
        text += ": \(message)"
        if let code { text += " (\(code))" }
        return text
    }
}
