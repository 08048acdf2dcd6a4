import Foundation

/// A ledger in a PostgreSQL database, shared by every station of a line.
///
/// A claim is one `INSERT ... ON CONFLICT DO UPDATE ... WHERE` statement: PostgreSQL locks the
/// conflicting row and re-checks the condition against its latest version, so of any number of
/// stations claiming the same device at once exactly one gets it. Lease times come from the
/// server's clock (`clock_timestamp()`), unless a clock is injected for tests. Each instance
/// holds one connection; several instances (or processes) may share a database. Every call
/// commits before it returns (the server's `synchronous_commit` decides durability; its default
/// `on` waits for the WAL flush).
///
/// A connection lost in the middle of a call (the server restarted, an administrator terminated
/// the backend) is re-established and the call made once more. Every call is written so that
/// running it twice does what running it once does, because a commit whose answer was lost may or
/// may not have happened: a claim retried with its claim id finds its own row, an attempt is
/// inserted only if no row has its claim id and attempt number yet.
package final class PostgresLedger: Ledger, @unchecked Sendable {
    package let location: String
    /// This instance (`LedgerSession.text`).
    var sessionText: String { options.session.text }
    package var session: LedgerSession { options.session }
    let options: LedgerOptions
    let executor: BlockingExecutor
    /// Touched only inside `executor.run`.
    let connection: PostgresConnection
    /// The ledger's schema version once opened (older only for a ledger opened `.existing`).
    let schemaVersion: Int

    /// Connects and (with `.createIfMissing`) creates the tables, serialized between stations by
    /// an advisory lock.
    package init(_ location: LedgerURL.PostgresLocation, options: LedgerOptions = LedgerOptions()) async throws(LedgerError) {
        let display = LedgerURL.postgresql(location).description
        self.location = display
        self.options = options
        executor = BlockingExecutor(label: "dfukit.ledger.postgresql")
        (connection, schemaVersion) = try await executor.run { () throws(LedgerError) -> (PostgresConnection, Int) in
            let connection = try PostgresConnection(connectionString: location.connectionString, location: display)
            let version = try Self.prepare(connection, access: options.access)
            return (connection, version)
        }
    }

    /// Runs `body` on the executor's thread; when the connection broke during it, runs it once
    /// more (`PostgresConnection.query` reconnects first). `body` must be safe to run twice.
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws(LedgerError) -> T)
        async throws(LedgerError) -> T {
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> T in
            do throws(LedgerError) {
                return try body(connection)
            } catch where error.kind == .cannotOpen && connection.isBroken {
                return try body(connection)
            }
        }
    }

    /// Any number that all DFUKit stations use for the schema's advisory lock ("DFUK").
    private static let schemaLockKey = "1145459019"

    private static func prepare(_ connection: PostgresConnection, access: LedgerOptions.Access) throws(LedgerError) -> Int {
        let operation = LedgerOperation.createSchema
        let location = connection.location
        return try connection.transaction(operation: operation) { () throws(LedgerError) -> Int in
            if access == .createIfMissing {
                try connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [schemaLockKey], operation: operation)
                for statement in LedgerSchema.postgres { try connection.query(statement, operation: operation) }
            } else {
                let found = try connection.query("SELECT to_regclass('dfukit_schema') IS NOT NULL",
                                                 operation: "find the ledger's tables")
                guard found.first?.first == "t" else { throw LedgerSchema.missing(ledger: location) }
            }
            let versions = try connection.query("SELECT version FROM dfukit_schema", operation: operation)
            if let found = versions.first?.first.flatMap({ $0 }).flatMap({ Int($0) }) {
                guard found <= LedgerSchema.version else { throw LedgerSchema.tooNew(found, ledger: location) }
                guard access == .createIfMissing, found < LedgerSchema.version else { return found }
                if found < 2 {
                    for statement in LedgerSchema.postgresMigrationFrom1 {
                        try connection.query(statement, operation: "migrate the ledger to schema version 2")
                    }
                }
                if found < 3 {
                    for statement in LedgerSchema.migrationFrom2 {
                        try connection.query(statement, operation: "migrate the ledger to schema version 3")
                    }
                }
                if found < 4 {
                    for statement in LedgerSchema.postgresMigrationFrom3 {
                        try connection.query(statement, operation: "migrate the ledger to schema version 4")
                    }
                }
                try connection.query(LedgerSchema.lineIndex, operation: "migrate the ledger to schema version 4")
                for statement in LedgerSchema.postgresMigrationFrom4 {
                    try connection.query(statement, operation: "migrate the ledger to schema version 5")
                }
            } else if access == .createIfMissing {
                try connection.query("INSERT INTO dfukit_schema (version) VALUES ($1)", [String(LedgerSchema.version)],
                                     operation: operation)
                try connection.query(LedgerSchema.lineIndex, operation: operation)
            }
            return LedgerSchema.version
        }
    }

    /// The injected clock's time as seconds since 1970, or nil for the server's clock.
    var injectedNow: String? {
        options.clock.isInjected ? String(options.clock.now().timeIntervalSince1970) : nil
    }

    /// SQL for "now": the injected time `$n` when given, else the server's clock.
    static func now(_ parameter: Int) -> String {
        "coalesce(to_timestamp($\(parameter)::double precision), clock_timestamp())"
    }

    // MARK: Claims

    package func claim(device: String, packageSHA256: String, station: String, id: String,
                      includingDone: Bool) async throws(LedgerError) -> Claim? {
        let operation = LedgerOperation.claim(device, packageSHA256)
        try LedgerOperation.validate(device: device, packageSHA256: packageSHA256, station: station,
                                     ledger: location, operation: operation)
        let parameters = [device, packageSHA256, id, station, sessionText, injectedNow, String(options.leaseSeconds),
                          includingDone ? "t" : "f"]
        // Taken over: a released claim, or an active one whose lease ran out; found again: this
        // very claim (the same id), when a retry follows a commit whose answer was lost.
        let rows = try await run { (connection) throws(LedgerError) -> [[String?]] in
            // A granted claim is announced to listeners (`NOTIFY`, delivered when the statement commits).
            try connection.query("""
                WITH granted AS (
                INSERT INTO dfukit_claims AS current
                    (device, package_sha256, claim_id, station, session, state, claimed_at, heartbeat_at)
                VALUES ($1, $2, $3, $4, $5, 'active', \(Self.now(6)), \(Self.now(6)))
                ON CONFLICT (device, package_sha256) DO UPDATE SET claim_id = excluded.claim_id,
                    station = excluded.station, session = excluded.session, state = 'active',
                    claimed_at = excluded.claimed_at, heartbeat_at = excluded.heartbeat_at
                WHERE current.state = 'released' OR (current.state = 'done' AND $8::boolean)
                   OR (current.state = 'active' AND current.claim_id = excluded.claim_id)
                   OR (current.state = 'active'
                       AND current.heartbeat_at + make_interval(secs => $7::double precision) < excluded.claimed_at)
                RETURNING extract(epoch FROM claimed_at)::double precision AS claimed,
                    (SELECT count(*) FROM dfukit_attempts a WHERE a.device = $1 AND a.package_sha256 = $2) AS previous)
                SELECT claimed, previous, \(LedgerSchema.notifyCall("claims")) FROM granted
                """, parameters, operation: operation)
        }
        guard let row = rows.first else { return nil }
        return Claim(id: id, device: device, packageSHA256: packageSHA256, station: station,
                     claimedAt: Date(timeIntervalSince1970: row[0].flatMap(Double.init) ?? 0),
                     previousAttempts: row[1].flatMap { Int($0) } ?? 0)
    }

    package func releaseEarlierClaims(station: String) async throws(LedgerError) -> Int {
        let operation = LedgerOperation.releaseEarlier(station)
        let session = sessionText
        return try await run { (connection) throws(LedgerError) -> Int in
            let sessions = try connection.query("""
                SELECT DISTINCT session FROM dfukit_claims WHERE station = $1 AND session <> $2 AND state = 'active'
                """, [station, session], operation: operation).compactMap { $0.first ?? nil }
            var released = 0
            for earlier in sessions where LedgerSession(text: earlier)?.isProvablyGone() == true {
                let rows = try connection.query("""
                    WITH released AS (
                        UPDATE dfukit_claims SET state = 'released' WHERE station = $1 AND session = $2 AND state = 'active'
                        RETURNING 1)
                    SELECT count(*) FROM released
                    """, [station, earlier], operation: operation)
                released += rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
            }
            return released
        }
    }

    package func heartbeat(_ claim: Claim) async throws(LedgerError) {
        let operation = LedgerOperation.heartbeat(claim)
        let (location, now) = (location, injectedNow)
        try await run { (connection) throws(LedgerError) -> Void in
            let updated = try connection.query("""
                UPDATE dfukit_claims SET heartbeat_at = \(Self.now(4))
                WHERE device = $1 AND package_sha256 = $2 AND claim_id = $3 AND state = 'active'
                RETURNING 1
                """, [claim.device, claim.packageSHA256, claim.id, now], operation: operation)
            guard updated.isEmpty else { return }
            let current = try connection.query(
                "SELECT state, station FROM dfukit_claims WHERE device = $1 AND package_sha256 = $2",
                [claim.device, claim.packageSHA256], operation: operation).first
            throw LedgerError(.claimLost, ledger: location, operation: operation,
                              message: LedgerOperation.lostMessage(state: current?[0] ?? nil, station: current?[1] ?? nil))
        }
    }

    package func release(_ claim: Claim) async throws(LedgerError) {
        let operation = LedgerOperation.release(claim)
        let session = sessionText
        try await run { (connection) throws(LedgerError) -> Void in
            try connection.transaction(operation: operation) { () throws(LedgerError) in
                try connection.query("""
                    UPDATE dfukit_claims SET state = 'released'
                    WHERE device = $1 AND package_sha256 = $2 AND claim_id = $3 AND state = 'active'
                    """, [claim.device, claim.packageSHA256, claim.id], operation: operation)
                try Self.clearLive(connection, device: claim.device, packageSHA256: claim.packageSHA256, session: session,
                                   operation: operation)
                try connection.notify("claims", operation: operation)
            }
        }
    }

    package func isDone(device: String, packageSHA256: String) async throws(LedgerError) -> Bool {
        let operation = LedgerOperation.isDone(device, packageSHA256)
        return try await run { (connection) throws(LedgerError) -> Bool in
            try connection.query(
                "SELECT 1 FROM dfukit_claims WHERE device = $1 AND package_sha256 = $2 AND state = 'done'",
                [device, packageSHA256], operation: operation).isEmpty == false
        }
    }

    // MARK: Attempts

    package func recordAttempt(_ attempt: Attempt, audit: SignedAuditRecord?) async throws(LedgerError) {
        let operation = LedgerOperation.record(attempt)
        try LedgerOperation.validate(device: attempt.device, packageSHA256: attempt.packageSHA256,
                                     station: attempt.station, ledger: location, operation: operation)
        let (session, now) = (sessionText, injectedNow)
        try await run { (connection) throws(LedgerError) -> Void in
            try connection.transaction(operation: operation) { () throws(LedgerError) in
                // Once per (claim, attempt number): a retry after a lost commit answer adds no row.
                try connection.query("""
                    INSERT INTO dfukit_attempts (claim_id, device, serial, package_sha256, profile, station, started_at,
                        ended_at, bytes, result, error_kind, error_message, attempt_number, seconds, bytes_per_second,
                        clock, device_version, line, radio)
                    SELECT $1, $2, $3, $4, $5, $6, to_timestamp($7::double precision), to_timestamp($8::double precision),
                        $9::bigint, $10, $11, $12, $13::integer, $14::double precision, $15::double precision, $16, $17, $18,
                        $19
                    WHERE NOT EXISTS (SELECT 1 FROM dfukit_attempts
                                      WHERE device = $2 AND package_sha256 = $4 AND claim_id = $1 AND attempt_number = $13::integer)
                    """, [
                        attempt.claimID, attempt.device, attempt.serial, attempt.packageSHA256, attempt.profile,
                        attempt.station, String(attempt.startedAt.timeIntervalSince1970),
                        String(attempt.endedAt.timeIntervalSince1970), String(attempt.bytes), attempt.result.rawValue,
                        attempt.errorKind, attempt.errorMessage, String(attempt.attemptNumber), String(attempt.seconds),
                        String(attempt.bytesPerSecond), attempt.clock?.rawValue, attempt.deviceVersion, attempt.line,
                        attempt.radio,
                    ], operation: operation)
                if let audit {
                    // The attempt's row, whether this call or an earlier try (whose answer was lost) wrote it.
                    try connection.query("""
                        INSERT INTO dfukit_audit_records (attempt_id, record, signature, key_id)
                        SELECT id, $5, $6, $7 FROM dfukit_attempts
                        WHERE device = $1 AND package_sha256 = $2 AND claim_id = $3 AND attempt_number = $4::integer
                        ORDER BY id LIMIT 1
                        ON CONFLICT (attempt_id) DO NOTHING
                        """, [attempt.device, attempt.packageSHA256, attempt.claimID, String(attempt.attemptNumber),
                              audit.canonicalJSON, audit.signature, audit.keyID], operation: operation)
                }
                let key = [attempt.device, attempt.packageSHA256, attempt.claimID]
                if attempt.result.marksDone {
                    try connection.query("""
                        INSERT INTO dfukit_claims (device, package_sha256, claim_id, station, session, state, claimed_at, heartbeat_at)
                        VALUES ($1, $2, $3, $4, $5, 'done', \(Self.now(6)), \(Self.now(6)))
                        ON CONFLICT (device, package_sha256) DO UPDATE SET state = 'done', heartbeat_at = excluded.heartbeat_at
                        """, key + [attempt.station, session, now], operation: operation)
                } else {
                    try connection.query("""
                        UPDATE dfukit_claims SET heartbeat_at = \(Self.now(4))
                        WHERE device = $1 AND package_sha256 = $2 AND claim_id = $3 AND state = 'active'
                        """, key + [now], operation: operation)
                }
                // The device is no longer in flight on this station (until its next attempt starts).
                try Self.clearLive(connection, device: attempt.device, packageSHA256: attempt.packageSHA256,
                                   session: session, operation: operation)
                try connection.notify("attempts", operation: operation)
            }
        }
    }

    package func attempts(_ filter: AttemptFilter) async throws(LedgerError) -> [Attempt] {
        let (conditions, parameters) = Self.conditions(filter)
        let sql = """
            SELECT claim_id, device, serial, package_sha256, profile, station,
                   extract(epoch FROM started_at)::double precision, extract(epoch FROM ended_at)::double precision,
                   bytes, result, error_kind, error_message, attempt_number, seconds, bytes_per_second,
                   \(LedgerSchema.extraAttemptColumns(version: schemaVersion))
            FROM dfukit_attempts\(conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) ORDER BY id
            """
        let (location, bound) = (location, parameters)
        return try await run { (connection) throws(LedgerError) -> [Attempt] in
            let rows = try connection.query(sql, bound, operation: LedgerOperation.readAttempts)
            var attempts: [Attempt] = []
            attempts.reserveCapacity(rows.count)
            for row in rows {
                guard let result = row[9].flatMap(Attempt.Result.init(rawValue:)) else {
                    throw LedgerError(.notALedger, ledger: location, operation: LedgerOperation.readAttempts,
                                      message: "an attempt has the unknown result '\(row[9] ?? "NULL")'")
                }
                func number(_ column: Int) -> Double { row[column].flatMap(Double.init) ?? 0 }
                attempts.append(Attempt(
                    claimID: row[0] ?? "", device: row[1] ?? "", serial: row[2], packageSHA256: row[3] ?? "",
                    profile: row[4] ?? "", station: row[5] ?? "",
                    startedAt: Date(timeIntervalSince1970: number(6)), endedAt: Date(timeIntervalSince1970: number(7)),
                    bytes: Int(number(8)), result: result, errorKind: row[10], errorMessage: row[11],
                    attemptNumber: Int(number(12)), seconds: number(13), bytesPerSecond: number(14),
                    clock: row[15].flatMap(Attempt.Clock.init(rawValue:)), deviceVersion: row[16], line: row[17],
                    radio: row[18]))
            }
            return attempts
        }
    }

    /// The WHERE conditions of `filter` over dfukit_attempts (its columns prefixed with
    /// `table`), with their parameters numbered $1, $2...
    private static func conditions(_ filter: AttemptFilter, table: String = "") -> (conditions: [String], parameters: [String?]) {
        var conditions: [String] = []
        var parameters: [String?] = []
        func add(_ condition: String, _ value: String) {
            parameters.append(value)
            conditions.append(table + condition.replacingOccurrences(of: "$?", with: "$\(parameters.count)"))
        }
        if let device = filter.device { add("device = $?", device) }
        if let package = filter.packageSHA256 { add("package_sha256 = $?", package) }
        if let station = filter.station { add("station = $?", station) }
        if let since = filter.since { add("started_at >= to_timestamp($?::double precision)", String(since.timeIntervalSince1970)) }
        return (conditions, parameters)
    }

    package func auditEntries(_ filter: AttemptFilter) async throws(LedgerError) -> [AuditEntry] {
        let (conditions, parameters) = Self.conditions(filter, table: "a.")
        let audit = LedgerSchema.auditColumns(version: schemaVersion)
        let sql = """
            SELECT a.device, a.attempt_number, a.station, extract(epoch FROM a.started_at)::double precision, \(audit.columns)
            FROM dfukit_attempts a\(audit.join)\(conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            ORDER BY a.id
            """
        let bound = parameters
        return try await run { (connection) throws(LedgerError) -> [AuditEntry] in
            try connection.query(sql, bound, operation: LedgerOperation.readAuditRecords).map { row in
                var record: SignedAuditRecord?
                if let canonical = row[4], let signature = row[5], let keyID = row[6] {
                    record = SignedAuditRecord(canonicalJSON: canonical, signature: signature, keyID: keyID)
                }
                return AuditEntry(device: row[0] ?? "", attempt: row[1].flatMap { Int($0) } ?? 0, station: row[2] ?? "",
                                  startedAt: Date(timeIntervalSince1970: row[3].flatMap { Double($0) } ?? 0), record: record)
            }
        }
    }

    // MARK: Line controls

    package func recordLineEvent(_ event: LineEvent) async throws(LedgerError) -> Bool {
        let operation = LedgerOperation.recordLineEvent(event)
        let now = injectedNow
        return try await run { (connection) throws(LedgerError) -> Bool in
            try connection.transaction(operation: operation) { () throws(LedgerError) -> Bool in
                let scope = event.stateColumn
                // One writer per line or device at a time: two stations tripping the rule at once record one halt.
                try connection.query("SELECT pg_advisory_xact_lock(hashtext($1)::bigint)",
                                     ["dfukit-line-control:\(scope.column):\(scope.value ?? "")"], operation: operation)
                let earlier = try Self.lineEvents(connection, condition: "\(scope.column) = $1", [scope.value],
                                                  operation: operation)
                guard event.changesState(after: earlier) else { return false }
                try connection.query("""
                    INSERT INTO dfukit_line_events (line, kind, at, station, operator, reason, rule, attempts, device,
                        package_sha256, last_attempt_id)
                    VALUES ($1, $2, \(Self.now(3)), $4, $5, $6, $7, $8, $9, $10,
                        (SELECT coalesce(max(id), 0) FROM dfukit_attempts))
                    """, [event.line, event.kind.rawValue, now, event.station, event.operatorName, event.reason,
                          event.rule, event.attemptsText, event.device, event.packageSHA256], operation: operation)
                try connection.notify("line_events", operation: operation)
                return true
            }
        }
    }

    package func lineEvents(line: String?) async throws(LedgerError) -> [LineEvent] {
        guard schemaVersion >= 4 else { return [] }
        return try await run { (connection) throws(LedgerError) -> [LineEvent] in
            guard let line else {
                return try Self.lineEvents(connection, condition: "true", [], operation: LedgerOperation.readLineEvents)
            }
            return try Self.lineEvents(connection, condition: "line = $1 OR line IS NULL", [line],
                                       operation: LedgerOperation.readLineEvents)
        }
    }

    private static func lineEvents(_ connection: PostgresConnection, condition: String, _ parameters: [String?],
                                   operation: String) throws(LedgerError) -> [LineEvent] {
        try connection.query("""
            SELECT line, kind, extract(epoch FROM at)::double precision, station, operator, reason, rule, attempts, device,
                package_sha256
            FROM dfukit_line_events WHERE \(condition) ORDER BY id
            """, parameters, operation: operation).compactMap { row in
            guard let kind = row[1].flatMap(LineEvent.Kind.init(rawValue:)) else { return nil }
            return LineEvent(kind: kind, line: row[0], at: Date(timeIntervalSince1970: row[2].flatMap(Double.init) ?? 0),
                             station: row[3], operatorName: row[4], reason: row[5], rule: row[6],
                             attempts: LineEvent.attempts(fromText: row[7]), device: row[8], packageSHA256: row[9])
        }
    }

    package func lineOutcomes(line: String, last: Int) async throws(LedgerError) -> [LineOutcome] {
        guard schemaVersion >= 4 else { return [] }
        return try await run { (connection) throws(LedgerError) -> [LineOutcome] in
            try connection.query("""
                SELECT device, attempt_number, station, result FROM dfukit_attempts
                WHERE line = $1 AND result IN ('succeeded', 'failed')
                  AND id > (SELECT coalesce(max(last_attempt_id), 0) FROM dfukit_line_events
                            WHERE line = $1 AND kind = 'resumed')
                ORDER BY id DESC LIMIT $2::integer
                """, [line, String(last)], operation: LedgerOperation.readLineEvents).reversed().map { row in
                LineOutcome(device: row[0] ?? "", attemptNumber: row[1].flatMap { Int($0) } ?? 0, station: row[2] ?? "",
                            failed: row[3] == "failed")
            }
        }
    }

    package func failedAttempts(device: String, packageSHA256: String) async throws(LedgerError) -> Int {
        let released = schemaVersion >= 4
            ? "(SELECT coalesce(max(last_attempt_id), 0) FROM dfukit_line_events WHERE device = $1 AND kind = 'released')" : "0"
        return try await run { (connection) throws(LedgerError) -> Int in
            try connection.query("""
                SELECT count(*) FROM dfukit_attempts
                WHERE device = $1 AND package_sha256 = $2 AND result = 'failed' AND id > \(released)
                """, [device, packageSHA256], operation: LedgerOperation.readLineEvents)
                .first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
        }
    }

    package func close() async {
        let connection = connection
        _ = try? await executor.run { () throws(LedgerError) in connection.close() }
    }
}
