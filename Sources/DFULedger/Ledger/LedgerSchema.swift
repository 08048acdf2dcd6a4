/// The ledger's tables, the same in SQLite and PostgreSQL (types differ: PostgreSQL keeps times
/// as `timestamptz`, SQLite as seconds since 1970):
///
/// - `dfukit_schema (version)`: one row; this build writes and reads `LedgerSchema.version`.
/// - `dfukit_claims`: one row per device and package, the current claim: `claim_id`, `station`,
///   `session` (one ledger instance), `state` (`active`, `released` or `done`), `claimed_at`,
///   `heartbeat_at`. The primary key (device, package_sha256) is what makes a claim exclusive.
/// - `dfukit_attempts`: one row per attempt, every field of `Attempt`, in insertion order (`id`).
/// - `dfukit_audit_records`: at most one row per attempt (`attempt_id` is its `dfukit_attempts.id`),
///   written in the attempt's transaction when the line signs: `record` (the canonical JSON, the
///   signed bytes), `signature` (Ed25519, base64), `key_id` (hex SHA-256 of the public key).
///
/// - `dfukit_line_events` (schema 4): one row per line control (`LineEvent`): `line`, `kind`
///   (`halted`, `resumed`, `quarantined`, `released`), `at`, `station`, `operator`, `reason`,
///   `rule`, `attempts` (the attempts that tripped a halt, one per text line), `device`,
///   `package_sha256`, and `last_attempt_id`: the newest `dfukit_attempts.id` when it was recorded
///   (a resume's and a release's start the halt rule's window and the device's failure count afresh).
/// - `dfukit_stations` (schema 5): one row per station process (`StationStatus`), keyed by its
///   `session` (as in `dfukit_claims`): `station`, `host`, `pid`, `line`, `radios` (one name per
///   text line), `state` (`running`, `halted`, `ended`), `started_at`, `seen_at`.
/// - `dfukit_live` (schema 5): one row per device in flight (`LiveDevice`), keyed by device,
///   package and session: `station`, `radio`, `line`, `attempt`, `phase`, `done`, `total`,
///   `bytes_per_second`, `rssi`, `phy`, `mtu`, `started_at`, `updated_at`. Deleted in the
///   transaction that records the device's attempt or releases its claim.
///
/// Versions: 1, the first; 2 adds the `skipped` result and the columns `clock` (`wall` or
/// `simulated`, NULL for attempts written before) and `device_version` to `dfukit_attempts`;
/// 3 adds `dfukit_audit_records` (attempts written before have no record); 4 adds the column
/// `line` to `dfukit_attempts` (NULL for attempts written before) and `dfukit_line_events`;
/// 5 adds the column `radio` to `dfukit_attempts` (NULL for attempts written before),
/// `dfukit_stations` and `dfukit_live` (the station dashboard's feed).
/// A station opening an older ledger migrates it in one transaction (`migrations`); a report
/// reads either version as it is.
///
/// On PostgreSQL every write transaction but a heartbeat also runs `NOTIFY dfukit_ledger`
/// (delivered to listeners when it commits: `LedgerChangeWatcher`).
enum LedgerSchema {
    /// The schema version this build creates and understands.
    static let version = 5

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
            result TEXT NOT NULL CHECK (result IN ('succeeded', 'failed', 'cancelled', 'skipped')),
            error_kind TEXT,
            error_message TEXT,
            attempt_number INTEGER NOT NULL,
            seconds REAL NOT NULL,
            bytes_per_second REAL NOT NULL,
            clock TEXT CHECK (clock IN ('wall', 'simulated')),
            device_version TEXT,
            line TEXT,
            radio TEXT
        )
        """,
        "CREATE INDEX IF NOT EXISTS dfukit_attempts_by_device ON dfukit_attempts (device, package_sha256)",
        """
        CREATE TABLE IF NOT EXISTS dfukit_audit_records (
            attempt_id INTEGER PRIMARY KEY,
            record TEXT NOT NULL,
            signature TEXT NOT NULL,
            key_id TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS dfukit_line_events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            line TEXT,
            kind TEXT NOT NULL CHECK (kind IN ('halted', 'resumed', 'quarantined', 'released')),
            at REAL NOT NULL,
            station TEXT,
            operator TEXT,
            reason TEXT,
            rule TEXT,
            attempts TEXT,
            device TEXT,
            package_sha256 TEXT,
            last_attempt_id INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS dfukit_stations (
            session TEXT PRIMARY KEY,
            station TEXT NOT NULL,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            line TEXT,
            radios TEXT,
            state TEXT NOT NULL CHECK (state IN ('running', 'halted', 'ended')),
            started_at REAL NOT NULL,
            seen_at REAL NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS dfukit_live (
            device TEXT NOT NULL,
            package_sha256 TEXT NOT NULL,
            station TEXT NOT NULL,
            session TEXT NOT NULL,
            radio TEXT,
            line TEXT,
            attempt INTEGER NOT NULL,
            phase TEXT NOT NULL,
            done INTEGER NOT NULL,
            total INTEGER NOT NULL,
            bytes_per_second REAL NOT NULL,
            rssi INTEGER,
            phy TEXT,
            mtu INTEGER,
            started_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (device, package_sha256, session)
        )
        """,
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
            result text NOT NULL CHECK (result IN ('succeeded', 'failed', 'cancelled', 'skipped')),
            error_kind text,
            error_message text,
            attempt_number integer NOT NULL,
            seconds double precision NOT NULL,
            bytes_per_second double precision NOT NULL,
            clock text CHECK (clock IN ('wall', 'simulated')),
            device_version text,
            line text,
            radio text
        )
        """,
        "CREATE INDEX IF NOT EXISTS dfukit_attempts_by_device ON dfukit_attempts (device, package_sha256)",
        """
        CREATE TABLE IF NOT EXISTS dfukit_audit_records (
            attempt_id bigint PRIMARY KEY,
            record text NOT NULL,
            signature text NOT NULL,
            key_id text NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS dfukit_line_events (
            id bigserial PRIMARY KEY,
            line text,
            kind text NOT NULL CHECK (kind IN ('halted', 'resumed', 'quarantined', 'released')),
            at timestamptz NOT NULL,
            station text,
            operator text,
            reason text,
            rule text,
            attempts text,
            device text,
            package_sha256 text,
            last_attempt_id bigint NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS dfukit_stations (
            session text PRIMARY KEY,
            station text NOT NULL,
            host text NOT NULL,
            pid integer NOT NULL,
            line text,
            radios text,
            state text NOT NULL CHECK (state IN ('running', 'halted', 'ended')),
            started_at timestamptz NOT NULL,
            seen_at timestamptz NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS dfukit_live (
            device text NOT NULL,
            package_sha256 text NOT NULL,
            station text NOT NULL,
            session text NOT NULL,
            radio text,
            line text,
            attempt integer NOT NULL,
            phase text NOT NULL,
            done bigint NOT NULL,
            total bigint NOT NULL,
            bytes_per_second double precision NOT NULL,
            rssi integer,
            phy text,
            mtu integer,
            started_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            PRIMARY KEY (device, package_sha256, session)
        )
        """,
    ]

    /// The statements that bring a ledger from version 1 to 2 (run in the schema transaction).
    /// SQLite cannot change a CHECK constraint in place: the attempts table is copied into a new one.
    static let sqliteMigrationFrom1 = [
        "ALTER TABLE dfukit_attempts RENAME TO dfukit_attempts_v1",
        "DROP INDEX IF EXISTS dfukit_attempts_by_device",
        sqlite[2],
        """
        INSERT INTO dfukit_attempts (id, claim_id, device, serial, package_sha256, profile, station, started_at, ended_at,
            bytes, result, error_kind, error_message, attempt_number, seconds, bytes_per_second)
        SELECT id, claim_id, device, serial, package_sha256, profile, station, started_at, ended_at,
            bytes, result, error_kind, error_message, attempt_number, seconds, bytes_per_second FROM dfukit_attempts_v1
        """,
        "DROP TABLE dfukit_attempts_v1",
        sqlite[3],
        "UPDATE dfukit_schema SET version = 2",
    ]

    static let postgresMigrationFrom1 = [
        "ALTER TABLE dfukit_attempts DROP CONSTRAINT IF EXISTS dfukit_attempts_result_check",
        """
        ALTER TABLE dfukit_attempts ADD CONSTRAINT dfukit_attempts_result_check
            CHECK (result IN ('succeeded', 'failed', 'cancelled', 'skipped'))
        """,
        "ALTER TABLE dfukit_attempts ADD COLUMN IF NOT EXISTS clock text CHECK (clock IN ('wall', 'simulated'))",
        "ALTER TABLE dfukit_attempts ADD COLUMN IF NOT EXISTS device_version text",
        "UPDATE dfukit_schema SET version = 2",
    ]

    /// The statements that bring a ledger from version 2 to 3: the audit table itself is made by
    /// the schema's `CREATE TABLE IF NOT EXISTS`, run before.
    static let migrationFrom2 = ["UPDATE dfukit_schema SET version = 3"]

    /// The column version 4 adds to `dfukit_attempts` (SQLite has no `ADD COLUMN IF NOT EXISTS`:
    /// a ledger migrated from version 1 got it with the copied table already).
    static let sqliteLineColumn = "ALTER TABLE dfukit_attempts ADD COLUMN line TEXT"

    /// Brings a version 3 ledger to 4 on PostgreSQL (`dfukit_line_events` is made by the schema's
    /// `CREATE TABLE IF NOT EXISTS`, run before).
    static let postgresMigrationFrom3 = [
        "ALTER TABLE dfukit_attempts ADD COLUMN IF NOT EXISTS line text",
        "UPDATE dfukit_schema SET version = 4",
    ]

    /// The column version 5 adds to `dfukit_attempts` on SQLite (unless the table was copied from
    /// version 1 with it already); `dfukit_stations` and `dfukit_live` are made by the schema's
    /// `CREATE TABLE IF NOT EXISTS`, run before.
    static let sqliteRadioColumn = "ALTER TABLE dfukit_attempts ADD COLUMN radio TEXT"

    /// Brings a version 4 ledger to 5 on PostgreSQL (the new tables are made by the schema's
    /// `CREATE TABLE IF NOT EXISTS`, run before).
    static let postgresMigrationFrom4 = [
        "ALTER TABLE dfukit_attempts ADD COLUMN IF NOT EXISTS radio text",
        "UPDATE dfukit_schema SET version = 5",
    ]

    /// The channel every committed write but a heartbeat is announced on (PostgreSQL `NOTIFY`).
    static let notifyChannel = "dfukit_ledger"

    /// SQL that announces a change of `table` (`claims`, `attempts`, ...: the payload) on
    /// `notifyChannel` when the transaction commits, as an expression for a SELECT list.
    static func notifyCall(_ table: String) -> String {
        "pg_notify('\(notifyChannel)', '\(table)')"
    }

    /// Run after any migration and on a new ledger: the index the halt rule reads the line's
    /// latest attempts by (the column exists by then).
    static let lineIndex = "CREATE INDEX IF NOT EXISTS dfukit_attempts_by_line ON dfukit_attempts (line, id)"

    /// The audit columns an attempts query reads after the attempt's: NULLs from a ledger older
    /// than version 3 (opened `.existing`, it has no audit table).
    static func auditColumns(version: Int) -> (columns: String, join: String) {
        version >= 3
            ? ("r.record, r.signature, r.key_id", " LEFT JOIN dfukit_audit_records r ON r.attempt_id = a.id")
            : ("NULL, NULL, NULL", "")
    }

    /// The attempt columns after `bytes_per_second` a SELECT reads: NULLs where the ledger's version lacks them.
    static func extraAttemptColumns(version: Int) -> String {
        (version >= 2 ? "clock, device_version" : "NULL, NULL") + (version >= 4 ? ", line" : ", NULL")
            + (version >= 5 ? ", radio" : ", NULL")
    }

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
