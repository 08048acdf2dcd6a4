/// The ledger's tables, the same in SQLite and PostgreSQL (types differ: PostgreSQL keeps times
/// as `timestamptz`, SQLite as seconds since 1970):
///
/// - `dfukit_schema (version)`: one row; this build writes and reads `LedgerSchema.version`.
/// - `dfukit_claims`: one row per device and package, the current claim: `claim_id`, `station`,
///   `session` (one ledger instance), `state` (`active`, `released` or `done`), `claimed_at`,
///   `heartbeat_at`. The primary key (device, package_sha256) is what makes a claim exclusive.
/// - `dfukit_attempts`: one row per attempt, every field of `Attempt`, in insertion order (`id`).
enum LedgerSchema {
    /// The schema version this build creates and understands.
    static let version = 1

    static let sqlite = [
        "CREATE TABLE IF NOT EXISTS dfukit_schema (version INTEGER NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS dfukit_claims (
            device TEXT NOT NULL,
            package_sha256 TEXT NOT NULL,
            claim_id TEXT NOT NULL,
            station TEXT NOT NULL,
            session TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('active', 'released', 'done')),
            claimed_at REAL NOT NULL,
            heartbeat_at REAL NOT NULL,
            PRIMARY KEY (device, package_sha256)
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS dfukit_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            claim_id TEXT NOT NULL,
            device TEXT NOT NULL,
            serial TEXT,
            package_sha256 TEXT NOT NULL,
            profile TEXT NOT NULL,
            station TEXT NOT NULL,
            started_at REAL NOT NULL,
            ended_at REAL NOT NULL,
            bytes INTEGER NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('succeeded', 'failed', 'cancelled')),
            error_kind TEXT,
            error_message TEXT,
            attempt_number INTEGER NOT NULL,
            seconds REAL NOT NULL,
            bytes_per_second REAL NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS dfukit_attempts_by_device ON dfukit_attempts (device, package_sha256)",
    ]

    static let postgres = [
        "CREATE TABLE IF NOT EXISTS dfukit_schema (version integer NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS dfukit_claims (
            device text NOT NULL,
            package_sha256 text NOT NULL,
            claim_id text NOT NULL,
            station text NOT NULL,
            session text NOT NULL,
            state text NOT NULL CHECK (state IN ('active', 'released', 'done')),
            claimed_at timestamptz NOT NULL,
            heartbeat_at timestamptz NOT NULL,
            PRIMARY KEY (device, package_sha256)
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS dfukit_attempts (
            id bigserial PRIMARY KEY,
            claim_id text NOT NULL,
            device text NOT NULL,
            serial text,
            package_sha256 text NOT NULL,
            profile text NOT NULL,
            station text NOT NULL,
            started_at timestamptz NOT NULL,
            ended_at timestamptz NOT NULL,
            bytes bigint NOT NULL,
            result text NOT NULL CHECK (result IN ('succeeded', 'failed', 'cancelled')),
            error_kind text,
            error_message text,
            attempt_number integer NOT NULL,
            seconds double precision NOT NULL,
            bytes_per_second double precision NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS dfukit_attempts_by_device ON dfukit_attempts (device, package_sha256)",
    ]

    /// The error for a ledger whose schema is newer than this build.
    static func tooNew(_ found: Int, ledger: String) -> LedgerError {
        LedgerError(.notALedger, ledger: ledger, operation: "read the schema version",
                    message: "the ledger has schema version \(found), written by a newer DFUKit; this build reads "
                        + "version \(version). Use a newer dfukit")
    }

    /// The error for a database without the ledger's tables, opened with `.existing`.
    static func missing(ledger: String) -> LedgerError {
        LedgerError(.notALedger, ledger: ledger, operation: "find the ledger's tables",
                    message: "the database has no dfukit_schema table: it is not a DFUKit ledger "
                        + "(a ledger is created by 'dfukit batch run')")
    }
}
