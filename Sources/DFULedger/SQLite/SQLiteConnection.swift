import CSQLite
import Foundation

/// One open SQLite database: statements with bound parameters, immediate transactions and
/// errors that name the database, the operation and SQLite's own message and code.
///
/// Opened with `SQLITE_OPEN_FULLMUTEX`, so SQLite serializes calls itself; `SQLiteLedger` also
/// confines it to one `BlockingExecutor`. Prepared statements are cached by their SQL text.
final class SQLiteConnection: @unchecked Sendable {
    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    var location: String { "sqlite:\(path)" }

    /// Opens `path`; `create` allows creating the file. `readOnly` (a report) never writes to
    /// the database nor leaves a file beside it: with no `-wal` file there (no station has it
    /// open) the file is read as immutable, so SQLite creates no `-wal` or `-shm` that would
    /// belong to the reader's user and stop the next station ("attempt to write a readonly
    /// database"); with one there, it is read through the station's own WAL files.
    init(path: String, create: Bool, readOnly: Bool = false, busyTimeout: Duration) throws(LedgerError) {
        self.path = path
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | (create && !readOnly ? SQLITE_OPEN_CREATE : 0)
            | SQLITE_OPEN_FULLMUTEX
        var name = path
        if readOnly, path != ":memory:", !FileManager.default.fileExists(atPath: path + "-wal") {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Self.uriPath(path) + "?immutable=1"
        }
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(name, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw LedgerError(.cannotOpen, ledger: "sqlite:\(path)", operation: "open the database",
                              message: message, code: Self.codeName(status))
        }
        handle = opened
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(opened, Int32(clamping: milliseconds))
        sqlite3_extended_result_codes(opened, 1)
    }

    deinit {
        close()
    }

    /// `path` as the path of an SQLite URI filename: `%`, `?` and `#` escaped.
    static func uriPath(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs `sql` (one statement) with `parameters` bound to `?1`, `?2`, ... and returns every row.
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLiteValue] = [], operation: String) throws(LedgerError) -> [[SQLiteValue]] {
        let statement = try prepared(sql, operation: operation)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, dfukit_sqlite_transient())
            }
            guard status == SQLITE_OK else { throw failure(status, operation: operation) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw failure(status, operation: operation) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
                case SQLITE_NULL: return .null
                default: return .text(String(cString: sqlite3_column_text(statement, column)))
                }
            })
        }
        return rows
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// Runs `body` inside `BEGIN IMMEDIATE` ... `COMMIT` (the write lock is taken up front, so two
    /// processes never both read a free claim), rolling back when it throws.
    func immediateTransaction<T>(operation: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try query("BEGIN IMMEDIATE", operation: operation)
        do {
            let value = try body()
            try query("COMMIT", operation: operation)
            return value
        } catch {
            if let handle, sqlite3_get_autocommit(handle) == 0 {
                _ = try? query("ROLLBACK", operation: operation)
            }
            throw error
        }
    }

    private func prepared(_ sql: String, operation: String) throws(LedgerError) -> OpaquePointer {
        guard let handle else {
            throw LedgerError(.cannotOpen, ledger: location, operation: operation, message: "the ledger is closed")
        }
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, operation: operation) }
        statements[sql] = statement
        return statement
    }

    private func failure(_ status: Int32, operation: String) -> LedgerError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        let kind: LedgerError.Kind
        switch status & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT: kind = .notALedger
        case SQLITE_CANTOPEN, SQLITE_PERM: kind = .cannotOpen
        default: kind = .statementFailed
        }
        return LedgerError(kind, ledger: location, operation: operation, message: message, code: Self.codeName(status))
    }

    /// `SQLITE_BUSY 5` for the codes people meet; `SQLite result 1034` for the rest.
    static func codeName(_ status: Int32) -> String {
        let names: [Int32: String] = [
            SQLITE_ERROR: "SQLITE_ERROR", SQLITE_PERM: "SQLITE_PERM", SQLITE_BUSY: "SQLITE_BUSY",
            SQLITE_LOCKED: "SQLITE_LOCKED", SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY",
            SQLITE_IOERR: "SQLITE_IOERR", SQLITE_CORRUPT: "SQLITE_CORRUPT", SQLITE_FULL: "SQLITE_FULL",
            SQLITE_CANTOPEN: "SQLITE_CANTOPEN", SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT", SQLITE_NOTADB: "SQLITE_NOTADB",
        ]
        if let name = names[status] { return "\(name) \(status)" }
        if let name = names[status & 0xFF] { return "\(name) extended \(status)" }
        return "SQLite result \(status)"
    }
}
