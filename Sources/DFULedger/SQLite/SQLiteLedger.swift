import Foundation

/// A ledger in one SQLite file, for one station (several processes may share the file; each
/// claim is a `BEGIN IMMEDIATE` transaction).
///
/// Durability: the file is in WAL mode with `synchronous=FULL`, so every transaction is synced
/// to disk before `COMMIT` returns: a `kill -9` or a power cut loses nothing a call reported as
/// written (NORMAL would be faster but may lose the last commits on power loss).
package final class SQLiteLedger: Ledger, @unchecked Sendable {
    package let location: String
    /// This instance (`LedgerSession.text`): claims it holds are not handed out again, even to
    /// its own station name.
    var sessionText: String { options.session.text }
    package var session: LedgerSession { options.session }
    let options: LedgerOptions
    let executor: BlockingExecutor
    /// Touched only inside `executor.run`.
    let connection: SQLiteConnection
    /// The ledger's schema version once opened: `LedgerSchema.version`, or older for a ledger
    /// opened `.existing` (read as it is, never migrated by a report).
    let schemaVersion: Int

    /// Opens (and with `.createIfMissing` creates) the ledger at `path`; `:memory:` gives a
    /// private in-memory ledger for tests.
    package init(path: String, options: LedgerOptions = LedgerOptions()) async throws(LedgerError) {
        location = "sqlite:\(path)"
        self.options = options
        executor = BlockingExecutor(label: "dfukit.ledger.sqlite")
        let location = location
        if options.access == .existing, path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            throw LedgerError(.cannotOpen, ledger: location, operation: "open the database",
                              message: "no such file (a ledger is created by 'dfukit batch run')")
        }
        (connection, schemaVersion) = try await executor.run { () throws(LedgerError) -> (SQLiteConnection, Int) in
            let connection = try SQLiteConnection(path: path, create: options.access == .createIfMissing,
                                                  readOnly: options.access == .existing, busyTimeout: options.busyTimeout)
            let version = try Self.prepare(connection, access: options.access, isMemory: path == ":memory:")
            return (connection, version)
        }
    }

    /// Sets WAL and FULL sync, then creates, migrates or checks the tables; returns the schema version.
    private static func prepare(_ connection: SQLiteConnection, access: LedgerOptions.Access,
                                isMemory: Bool) throws(LedgerError) -> Int {
        let location = connection.location
        if access == .existing {
            // Only reads: a report needs neither the write lock nor write access to the file.
            let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'dfukit_schema'",
                                              operation: "find the ledger's tables")
            guard !tables.isEmpty else { throw LedgerSchema.missing(ledger: location) }
            return try checkVersion(connection, operation: "read the schema version") ?? LedgerSchema.version
        }
        // A database of something else is never made a ledger: tables would be added to it.
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
                                          operation: "find the ledger's tables").compactMap { $0.first?.text }
        if !tables.isEmpty, !tables.contains("dfukit_schema") {
            throw LedgerError(.notALedger, ledger: location, operation: "find the ledger's tables",
                              message: "the database holds other tables (\(tables.prefix(5).joined(separator: ", ")))"
                                + " and no dfukit_schema: it is not a DFUKit ledger, and none is made in it; name a new "
                                + "file or an existing ledger")
        }
        let mode = try connection.query("PRAGMA journal_mode = WAL", operation: "switch to WAL")
        let modeName = mode.first?.first?.text ?? "?"
        guard modeName == "wal" || (isMemory && modeName == "memory") else {
            throw LedgerError(.cannotOpen, ledger: location, operation: "switch to WAL",
                              message: "the journal mode stayed '\(modeName)' (is the directory writable?)")
        }
        try connection.query("PRAGMA synchronous = FULL", operation: "set synchronous = FULL")
        let operation = LedgerOperation.createSchema
        try connection.immediateTransaction(operation: operation) { () throws(LedgerError) in
            for statement in LedgerSchema.sqlite { try connection.query(statement, operation: operation) }
            switch try checkVersion(connection, operation: operation) {
            case nil:
                try connection.query("INSERT INTO dfukit_schema (version) VALUES (?1)",
                                     [.integer(Int64(LedgerSchema.version))], operation: operation)
            case 1?:
                for statement in LedgerSchema.sqliteMigrationFrom1 {
                    try connection.query(statement, operation: "migrate the ledger to schema version 2")
                }
                for statement in LedgerSchema.migrationFrom2 {
                    try connection.query(statement, operation: "migrate the ledger to schema version 3")
                }
            case 2?:
                for statement in LedgerSchema.migrationFrom2 {
                    try connection.query(statement, operation: "migrate the ledger to schema version 3")
                }
            default:
                break
            }
            try migrateTo4(connection)
            try migrateTo5(connection)
        }
        return LedgerSchema.version
    }

    /// Version 3 to 4: the attempts' `line` column (unless the table was copied from version 1
    /// with it already), then the line index, on every ledger opened for writing.
    private static func migrateTo4(_ connection: SQLiteConnection) throws(LedgerError) {
        let operation = "migrate the ledger to schema version 4"
        if let found = try checkVersion(connection, operation: operation), found < 4 {
            let columns = try connection.query("PRAGMA table_info(dfukit_attempts)", operation: operation).compactMap { $0[1].text }
            if !columns.contains("line") { try connection.query(LedgerSchema.sqliteLineColumn, operation: operation) }
            try connection.query("UPDATE dfukit_schema SET version = 4", operation: operation)
        }
        try connection.query(LedgerSchema.lineIndex, operation: operation)
    }

    /// Version 4 to 5: the attempts' `radio` column (unless the table was copied from version 1
    /// with it already); the stations' and live tables were made by the schema's statements.
    private static func migrateTo5(_ connection: SQLiteConnection) throws(LedgerError) {
        let operation = "migrate the ledger to schema version 5"
        guard let found = try checkVersion(connection, operation: operation), found < 5 else { return }
        let columns = try connection.query("PRAGMA table_info(dfukit_attempts)", operation: operation).compactMap { $0[1].text }
        if !columns.contains("radio") { try connection.query(LedgerSchema.sqliteRadioColumn, operation: operation) }
        try connection.query("UPDATE dfukit_schema SET version = 5", operation: operation)
    }

    /// The ledger's schema version (nil when none is recorded yet); throws when it is newer than
    /// this build.
    @discardableResult
    private static func checkVersion(_ connection: SQLiteConnection, operation: String) throws(LedgerError) -> Int? {
        let versions = try connection.query("SELECT version FROM dfukit_schema", operation: operation)
        guard let found = versions.first?.first?.integer else { return nil }
        guard found <= LedgerSchema.version else { throw LedgerSchema.tooNew(Int(found), ledger: connection.location) }
        return Int(found)
    }

    // MARK: Claims

    package func claim(device: String, packageSHA256: String, station: String, id: String,
                      includingDone: Bool) async throws(LedgerError) -> Claim? {
        let operation = LedgerOperation.claim(device, packageSHA256)
        try LedgerOperation.validate(device: device, packageSHA256: packageSHA256, station: station,
                                     ledger: location, operation: operation)
        let (connection, session, lease, clock) = (connection, sessionText, options.leaseSeconds, options.clock)
        return try await executor.run { () throws(LedgerError) -> Claim? in
            try connection.immediateTransaction(operation: operation) { () throws(LedgerError) -> Claim? in
                let now = clock.now()
                let key: [SQLiteValue] = [.text(device), .text(packageSHA256)]
                let current = try connection.query(
                    "SELECT state, heartbeat_at, claim_id FROM dfukit_claims WHERE device = ?1 AND package_sha256 = ?2",
                    key, operation: operation).first
                if let current {
                    let expired = (current[1].real ?? 0) + lease < now.timeIntervalSince1970
                    let ownRetry = current[2].text == id
                    switch current[0].text {
                    case "done" where !includingDone: return nil
                    case "active" where !expired && !ownRetry: return nil
                    default: break
                    }
                }
                let time = SQLiteValue.real(now.timeIntervalSince1970)
                try connection.query("""
                    INSERT INTO dfukit_claims (device, package_sha256, claim_id, station, session, state, claimed_at, heartbeat_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, 'active', ?6, ?6)
                    ON CONFLICT (device, package_sha256) DO UPDATE SET claim_id = excluded.claim_id,
                        station = excluded.station, session = excluded.session, state = 'active',
                        claimed_at = excluded.claimed_at, heartbeat_at = excluded.heartbeat_at
                    """, key + [.text(id), .text(station), .text(session), time], operation: operation)
                let previous = try connection.query(
                    "SELECT count(*) FROM dfukit_attempts WHERE device = ?1 AND package_sha256 = ?2",
                    key, operation: operation).first?.first?.integer ?? 0
                return Claim(id: id, device: device, packageSHA256: packageSHA256, station: station, claimedAt: now,
                             previousAttempts: Int(previous))
            }
        }
    }

    package func releaseEarlierClaims(station: String) async throws(LedgerError) -> Int {
        let operation = LedgerOperation.releaseEarlier(station)
        let (connection, session) = (connection, sessionText)
        return try await executor.run { () throws(LedgerError) -> Int in
            let sessions = try connection.query("""
                SELECT DISTINCT session FROM dfukit_claims WHERE station = ?1 AND session <> ?2 AND state = 'active'
                """, [.text(station), .text(session)], operation: operation).compactMap { $0.first?.text }
            var released = 0
            for earlier in sessions where LedgerSession(text: earlier)?.isProvablyGone() == true {
                try connection.query("""
                    UPDATE dfukit_claims SET state = 'released' WHERE station = ?1 AND session = ?2 AND state = 'active'
                    """, [.text(station), .text(earlier)], operation: operation)
                released += connection.changes
            }
            return released
        }
    }

    package func heartbeat(_ claim: Claim) async throws(LedgerError) {
        let operation = LedgerOperation.heartbeat(claim)
        let (connection, clock, location) = (connection, options.clock, location)
        try await executor.run { () throws(LedgerError) -> Void in
            try connection.immediateTransaction(operation: operation) { () throws(LedgerError) in
                try connection.query("""
                    UPDATE dfukit_claims SET heartbeat_at = ?4
                    WHERE device = ?1 AND package_sha256 = ?2 AND claim_id = ?3 AND state = 'active'
                    """, [.text(claim.device), .text(claim.packageSHA256), .text(claim.id),
                          .real(clock.now().timeIntervalSince1970)], operation: operation)
                guard connection.changes == 0 else { return }
                let current = try connection.query(
                    "SELECT state, station FROM dfukit_claims WHERE device = ?1 AND package_sha256 = ?2",
                    [.text(claim.device), .text(claim.packageSHA256)], operation: operation).first
                throw LedgerError(.claimLost, ledger: location, operation: operation,
                                  message: LedgerOperation.lostMessage(state: current?[0].text, station: current?[1].text))
            }
        }
    }

    package func release(_ claim: Claim) async throws(LedgerError) {
        let operation = LedgerOperation.release(claim)
        let (connection, session) = (connection, sessionText)
        try await executor.run { () throws(LedgerError) -> Void in
            try connection.immediateTransaction(operation: operation) { () throws(LedgerError) in
                try connection.query("""
                    UPDATE dfukit_claims SET state = 'released'
                    WHERE device = ?1 AND package_sha256 = ?2 AND claim_id = ?3 AND state = 'active'
                    """, [.text(claim.device), .text(claim.packageSHA256), .text(claim.id)], operation: operation)
                try Self.clearLive(connection, device: claim.device, packageSHA256: claim.packageSHA256, session: session,
                                   operation: operation)
            }
        }
    }

    package func isDone(device: String, packageSHA256: String) async throws(LedgerError) -> Bool {
        let operation = LedgerOperation.isDone(device, packageSHA256)
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> Bool in
            try connection.query(
                "SELECT 1 FROM dfukit_claims WHERE device = ?1 AND package_sha256 = ?2 AND state = 'done'",
                [.text(device), .text(packageSHA256)], operation: operation).isEmpty == false
        }
    }

    // MARK: Attempts

    package func recordAttempt(_ attempt: Attempt, audit: SignedAuditRecord?) async throws(LedgerError) {
        let operation = LedgerOperation.record(attempt)
        try LedgerOperation.validate(device: attempt.device, packageSHA256: attempt.packageSHA256,
                                     station: attempt.station, ledger: location, operation: operation)
        let (connection, session, clock) = (connection, sessionText, options.clock)
        try await executor.run { () throws(LedgerError) -> Void in
            try connection.immediateTransaction(operation: operation) { () throws(LedgerError) in
                try connection.query("""
                    INSERT INTO dfukit_attempts (claim_id, device, serial, package_sha256, profile, station, started_at,
                        ended_at, bytes, result, error_kind, error_message, attempt_number, seconds, bytes_per_second,
                        clock, device_version, line, radio)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)
                    """, [
                        .text(attempt.claimID), .text(attempt.device), SQLiteValue(attempt.serial),
                        .text(attempt.packageSHA256), .text(attempt.profile), .text(attempt.station),
                        .real(attempt.startedAt.timeIntervalSince1970), .real(attempt.endedAt.timeIntervalSince1970),
                        .integer(Int64(attempt.bytes)), .text(attempt.result.rawValue), SQLiteValue(attempt.errorKind),
                        SQLiteValue(attempt.errorMessage), .integer(Int64(attempt.attemptNumber)),
                        .real(attempt.seconds), .real(attempt.bytesPerSecond), SQLiteValue(attempt.clock?.rawValue),
                        SQLiteValue(attempt.deviceVersion), SQLiteValue(attempt.line), SQLiteValue(attempt.radio),
                    ], operation: operation)
                if let audit {
                    try connection.query("""
                        INSERT INTO dfukit_audit_records (attempt_id, record, signature, key_id)
                        VALUES (last_insert_rowid(), ?1, ?2, ?3)
                        """, [.text(audit.canonicalJSON), .text(audit.signature), .text(audit.keyID)], operation: operation)
                }
                let now = SQLiteValue.real(clock.now().timeIntervalSince1970)
                let key: [SQLiteValue] = [.text(attempt.device), .text(attempt.packageSHA256), .text(attempt.claimID)]
                if attempt.result.marksDone {
                    // Done for good, whoever held the claim (or if nobody did).
                    try connection.query("""
                        INSERT INTO dfukit_claims (device, package_sha256, claim_id, station, session, state, claimed_at, heartbeat_at)
                        VALUES (?1, ?2, ?3, ?4, ?5, 'done', ?6, ?6)
                        ON CONFLICT (device, package_sha256) DO UPDATE SET state = 'done', heartbeat_at = excluded.heartbeat_at
                        """, key + [.text(attempt.station), .text(session), now], operation: operation)
                } else {
                    // An attempt is a sign of life: it extends the claim it was made under.
                    try connection.query("""
                        UPDATE dfukit_claims SET heartbeat_at = ?4
                        WHERE device = ?1 AND package_sha256 = ?2 AND claim_id = ?3 AND state = 'active'
                        """, key + [now], operation: operation)
                }
                // The device is no longer in flight on this station (until its next attempt starts).
                try Self.clearLive(connection, device: attempt.device, packageSHA256: attempt.packageSHA256,
                                   session: session, operation: operation)
            }
        }
    }

    package func attempts(_ filter: AttemptFilter) async throws(LedgerError) -> [Attempt] {
        var conditions: [String] = []
        var parameters: [SQLiteValue] = []
        func add(_ condition: String, _ value: SQLiteValue) {
            parameters.append(value)
            conditions.append(condition.replacingOccurrences(of: "?", with: "?\(parameters.count)"))
        }
        if let device = filter.device { add("device = ?", .text(device)) }
        if let package = filter.packageSHA256 { add("package_sha256 = ?", .text(package)) }
        if let station = filter.station { add("station = ?", .text(station)) }
        if let since = filter.since { add("started_at >= ?", .real(since.timeIntervalSince1970)) }
        let sql = """
            SELECT claim_id, device, serial, package_sha256, profile, station, started_at, ended_at, bytes, result,
                   error_kind, error_message, attempt_number, seconds, bytes_per_second,
                   \(LedgerSchema.extraAttemptColumns(version: schemaVersion))
            FROM dfukit_attempts\(conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) ORDER BY id
            """
        let (connection, location, bound) = (connection, location, parameters)
        return try await executor.run { () throws(LedgerError) -> [Attempt] in
            let rows = try connection.query(sql, bound, operation: LedgerOperation.readAttempts)
            var attempts: [Attempt] = []
            attempts.reserveCapacity(rows.count)
            for row in rows {
                guard let result = row[9].text.flatMap(Attempt.Result.init(rawValue:)) else {
                    throw LedgerError(.notALedger, ledger: location, operation: LedgerOperation.readAttempts,
                                      message: "an attempt has the unknown result '\(row[9].text ?? "NULL")'")
                }
                attempts.append(Attempt(
                    claimID: row[0].text ?? "", device: row[1].text ?? "", serial: row[2].text,
                    packageSHA256: row[3].text ?? "", profile: row[4].text ?? "", station: row[5].text ?? "",
                    startedAt: Date(timeIntervalSince1970: row[6].real ?? 0),
                    endedAt: Date(timeIntervalSince1970: row[7].real ?? 0), bytes: Int(row[8].integer ?? 0),
                    result: result, errorKind: row[10].text, errorMessage: row[11].text,
                    attemptNumber: Int(row[12].integer ?? 0), seconds: row[13].real ?? 0,
                    bytesPerSecond: row[14].real ?? 0, clock: row[15].text.flatMap(Attempt.Clock.init(rawValue:)),
                    deviceVersion: row[16].text, line: row[17].text, radio: row[18].text))
            }
            return attempts
        }
    }

    package func auditEntries(_ filter: AttemptFilter) async throws(LedgerError) -> [AuditEntry] {
        var conditions: [String] = []
        var parameters: [SQLiteValue] = []
        func add(_ condition: String, _ value: SQLiteValue) {
            parameters.append(value)
            conditions.append(condition.replacingOccurrences(of: "?", with: "?\(parameters.count)"))
        }
        if let device = filter.device { add("a.device = ?", .text(device)) }
        if let package = filter.packageSHA256 { add("a.package_sha256 = ?", .text(package)) }
        if let station = filter.station { add("a.station = ?", .text(station)) }
        if let since = filter.since { add("a.started_at >= ?", .real(since.timeIntervalSince1970)) }
        let audit = LedgerSchema.auditColumns(version: schemaVersion)
        let sql = """
            SELECT a.device, a.attempt_number, a.station, a.started_at, \(audit.columns)
            FROM dfukit_attempts a\(audit.join)\(conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            ORDER BY a.id
            """
        let (connection, bound) = (connection, parameters)
        return try await executor.run { () throws(LedgerError) -> [AuditEntry] in
            try connection.query(sql, bound, operation: LedgerOperation.readAuditRecords).map { row in
                var record: SignedAuditRecord?
                if let canonical = row[4].text, let signature = row[5].text, let keyID = row[6].text {
                    record = SignedAuditRecord(canonicalJSON: canonical, signature: signature, keyID: keyID)
                }
                return AuditEntry(device: row[0].text ?? "", attempt: Int(row[1].integer ?? 0), station: row[2].text ?? "",
                                  startedAt: Date(timeIntervalSince1970: row[3].real ?? 0), record: record)
            }
        }
    }

    // MARK: Line controls

    package func recordLineEvent(_ event: LineEvent) async throws(LedgerError) -> Bool {
        let operation = LedgerOperation.recordLineEvent(event)
        let (connection, clock) = (connection, options.clock)
        return try await executor.run { () throws(LedgerError) -> Bool in
            try connection.immediateTransaction(operation: operation) { () throws(LedgerError) -> Bool in
                let scope = event.stateColumn
                let earlier = try Self.lineEvents(connection, condition: "\(scope.column) = ?1",
                                                  [SQLiteValue(scope.value)], operation: operation)
                guard event.changesState(after: earlier) else { return false }
                try connection.query("""
                    INSERT INTO dfukit_line_events (line, kind, at, station, operator, reason, rule, attempts, device,
                        package_sha256, last_attempt_id)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, (SELECT coalesce(max(id), 0) FROM dfukit_attempts))
                    """, [SQLiteValue(event.line), .text(event.kind.rawValue), .real(clock.now().timeIntervalSince1970),
                          SQLiteValue(event.station), SQLiteValue(event.operatorName), SQLiteValue(event.reason),
                          SQLiteValue(event.rule), SQLiteValue(event.attemptsText), SQLiteValue(event.device),
                          SQLiteValue(event.packageSHA256)], operation: operation)
                return true
            }
        }
    }

    package func lineEvents(line: String?) async throws(LedgerError) -> [LineEvent] {
        guard schemaVersion >= 4 else { return [] }
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> [LineEvent] in
            guard let line else { return try Self.lineEvents(connection, condition: "1 = 1", [], operation: LedgerOperation.readLineEvents) }
            return try Self.lineEvents(connection, condition: "line = ?1 OR line IS NULL", [.text(line)],
                                       operation: LedgerOperation.readLineEvents)
        }
    }

    private static func lineEvents(_ connection: SQLiteConnection, condition: String, _ parameters: [SQLiteValue],
                                   operation: String) throws(LedgerError) -> [LineEvent] {
        try connection.query("""
            SELECT line, kind, at, station, operator, reason, rule, attempts, device, package_sha256
            FROM dfukit_line_events WHERE \(condition) ORDER BY id
            """, parameters, operation: operation).compactMap { row in
            guard let kind = row[1].text.flatMap(LineEvent.Kind.init(rawValue:)) else { return nil }
            return LineEvent(kind: kind, line: row[0].text, at: Date(timeIntervalSince1970: row[2].real ?? 0),
                             station: row[3].text, operatorName: row[4].text, reason: row[5].text, rule: row[6].text,
                             attempts: LineEvent.attempts(fromText: row[7].text), device: row[8].text,
                             packageSHA256: row[9].text)
        }
    }

    package func lineOutcomes(line: String, last: Int) async throws(LedgerError) -> [LineOutcome] {
        guard schemaVersion >= 4 else { return [] }
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> [LineOutcome] in
            try connection.query("""
                SELECT device, attempt_number, station, result FROM dfukit_attempts
                WHERE line = ?1 AND result IN ('succeeded', 'failed')
                  AND id > (SELECT coalesce(max(last_attempt_id), 0) FROM dfukit_line_events
                            WHERE line = ?1 AND kind = 'resumed')
                ORDER BY id DESC LIMIT ?2
                """, [.text(line), .integer(Int64(last))], operation: LedgerOperation.readLineEvents).reversed().map { row in
                LineOutcome(device: row[0].text ?? "", attemptNumber: Int(row[1].integer ?? 0), station: row[2].text ?? "",
                            failed: row[3].text == "failed")
            }
        }
    }

    package func failedAttempts(device: String, packageSHA256: String) async throws(LedgerError) -> Int {
        let connection = connection
        let released = schemaVersion >= 4
            ? "(SELECT coalesce(max(last_attempt_id), 0) FROM dfukit_line_events WHERE device = ?1 AND kind = 'released')" : "0"
        return try await executor.run { () throws(LedgerError) -> Int in
            Int(try connection.query("""
                SELECT count(*) FROM dfukit_attempts
                WHERE device = ?1 AND package_sha256 = ?2 AND result = 'failed' AND id > \(released)
                """, [.text(device), .text(packageSHA256)], operation: LedgerOperation.readLineEvents)
                .first?.first?.integer ?? 0)
        }
    }

    // MARK: Maintenance

    /// SQLite's `PRAGMA journal_mode`: `wal` for every file ledger.
    package func journalMode() async throws(LedgerError) -> String {
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> String in
            try connection.query("PRAGMA journal_mode", operation: "read the journal mode").first?.first?.text ?? ""
        }
    }

    /// SQLite's `PRAGMA synchronous` by name: `FULL` (every commit synced before it returns).
    package func synchronousSetting() async throws(LedgerError) -> String {
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> String in
            let value = try connection.query("PRAGMA synchronous", operation: "read the sync setting").first?.first?.integer
            let names = ["OFF", "NORMAL", "FULL", "EXTRA"]
            guard let value, names.indices.contains(Int(value)) else { return "unknown (\(value.map(String.init) ?? "none"))" }
            return names[Int(value)]
        }
    }

    /// SQLite's `PRAGMA integrity_check`: `["ok"]` for an intact file, otherwise one line per problem.
    package func integrityCheck() async throws(LedgerError) -> [String] {
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> [String] in
            try connection.query("PRAGMA integrity_check", operation: "check integrity").compactMap { $0.first?.text }
        }
    }

    package func close() async {
        let connection = connection
        _ = try? await executor.run { () throws(LedgerError) in connection.close() }
    }
}
