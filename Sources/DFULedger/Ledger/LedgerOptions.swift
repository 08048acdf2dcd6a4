/// How a ledger is opened.
public struct LedgerOptions: Sendable {
    /// Whether opening may create the database (SQLite file) and the ledger's tables.
    public enum Access: Sendable, Equatable {
        /// Create the file and tables when missing (what `batch run` does).
        case createIfMissing
        /// Open an existing ledger only: a missing file is `cannotOpen`, a database without the
        /// ledger's tables is `notALedger` (what `batch report` does).
        case existing
    }

    /// Whether opening may create the ledger.
    public var access: Access
    /// How long a claim lasts without a heartbeat before another station may take the device:
    /// a crashed station's devices become claimable again after this. Default 10 minutes.
    public var lease: Duration
    /// Where times come from: the wall clock, or the database server's for PostgreSQL.
    public var clock: LedgerClock
    /// How long a SQLite write waits for another process's transaction before failing.
    package var busyTimeout: Duration
    /// Who this instance's claims belong to (this process, unless a test plays another one).
    public var session: LedgerSession

    /// Options with the defaults of `batch run` unless given: create when missing, a 10-minute lease,
    /// the system clock, a 30 s SQLite busy timeout, this process's session.
    public init(access: Access = .createIfMissing, lease: Duration = .seconds(600), clock: LedgerClock = .system,
                busyTimeout: Duration = .seconds(30), session: LedgerSession = .current()) {
        self.access = access
        self.lease = lease
        self.clock = clock
        self.busyTimeout = busyTimeout
        self.session = session
    }

    var leaseSeconds: Double {
        let (seconds, attoseconds) = lease.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
