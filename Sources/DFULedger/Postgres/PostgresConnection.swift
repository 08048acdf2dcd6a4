import CPostgres
import Foundation

/// One libpq connection: statements with text parameters (`$1`, `$2`, ...), transactions, and
/// errors that carry the server's message and SQLSTATE. Not thread-safe (libpq connections are
/// not): `PostgresLedger` confines it to one `BlockingExecutor`.
final class PostgresConnection: @unchecked Sendable {
    /// The URL without the password.
    let location: String
    private(set) var handle: OpaquePointer?
    /// Between BEGIN and COMMIT/ROLLBACK: a lost connection then fails the call instead of
    /// reconnecting, so the rest of a transaction never runs outside it.
    private var inTransaction = false

    /// Connects (blocking) with `connectionString`, a libpq URI.
    init(connectionString: String, location: String) throws(LedgerError) {
        self.location = location
        let connection = PQconnectdb(connectionString)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { Self.trimmed(PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(connection)
            throw LedgerError(.cannotOpen, ledger: location, operation: "connect to the server", message: message)
        }
        handle = connection
        // libpq prints notices and warnings (CREATE TABLE IF NOT EXISTS: "already exists, skipping")
        // on standard error by default; the ledger reports problems as errors only. The processor
        // stays with the connection across PQreset.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        close()
    }

    /// Whether the connection broke (the server restarted, the backend was terminated, the network
    /// dropped): the next `query` reconnects first.
    var isBroken: Bool {
        guard let handle else { return false }
        return PQstatus(handle) != CONNECTION_OK
    }

    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// Runs one statement with `parameters` (text; nil is NULL) and returns every row as text.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = [], operation: String) throws(LedgerError) -> [[String?]] {
        guard let handle else {
            throw LedgerError(.cannotOpen, ledger: location, operation: operation, message: "the ledger is closed")
        }
        if PQstatus(handle) != CONNECTION_OK {
            guard !inTransaction else {
                throw LedgerError(.cannotOpen, ledger: location, operation: operation,
                                  message: "lost the connection in the middle of a transaction (nothing of it was committed)")
            }
            // The server restarted or the network dropped since the last call: try once to reconnect.
            PQreset(handle)
            guard PQstatus(handle) == CONNECTION_OK else {
                throw LedgerError(.cannotOpen, ledger: location, operation: operation,
                                  message: "lost the connection and could not reconnect: " + Self.trimmed(PQerrorMessage(handle)))
            }
        }
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let result = copies.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
        }
        defer { PQclear(result) }
        guard let result else {
            throw LedgerError(.statementFailed, ledger: location, operation: operation,
                              message: Self.trimmed(PQerrorMessage(handle)))
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let sqlstate = PQresultErrorField(result, dfukit_pg_diag_sqlstate()).map { String(cString: $0) }
            let kind: LedgerError.Kind = PQstatus(handle) == CONNECTION_OK ? .statementFailed : .cannotOpen
            throw LedgerError(kind, ledger: location, operation: operation,
                              message: Self.trimmed(PQresultErrorMessage(result)),
                              code: sqlstate.map { "SQLSTATE \($0)" })
        }
        let columns = PQnfields(result)
        return (0..<PQntuples(result)).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
    }

    /// Runs `body` between `BEGIN` and `COMMIT`, rolling back when it throws.
    func transaction<T>(operation: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try query("BEGIN", operation: operation)
        inTransaction = true
        defer { inTransaction = false }
        do {
            let value = try body()
            try query("COMMIT", operation: operation)
            return value
        } catch {
            if let handle, PQstatus(handle) == CONNECTION_OK { _ = try? query("ROLLBACK", operation: operation) }
            throw error
        }
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "unknown error" : text
    }
}
