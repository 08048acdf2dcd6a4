/// Where a ledger lives, parsed from `--ledger`:
///
/// - `sqlite:PATH` (also `sqlite://PATH` with an absolute path): one station, a file on disk.
///   `sqlite::memory:` is an in-memory ledger for tests (not durable, not WAL).
/// - `postgresql://user:password@host:port/database` (or `postgres://`): a ledger shared by
///   several stations. The text goes to libpq unchanged, so every libpq URI parameter works
///   (`?sslmode=require`, `?connect_timeout=5`, ...).
public enum LedgerURL: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file (`:memory:` for an in-memory ledger).
    case sqlite(path: String)
    /// A PostgreSQL database.
    case postgresql(PostgresLocation)

    /// The parts of a PostgreSQL URL this program shows; `connectionString` is what libpq gets.
    public struct PostgresLocation: Sendable, Equatable {
        /// The URL exactly as given (with the password): passed to libpq, never printed.
        package var connectionString: String
        /// The user name, when the URL gives one.
        public var user: String?
        /// The server's host name or address.
        public var host: String
        package var port: Int?
        package var database: String?
    }

    /// Parses `text`, throwing `LedgerError.Kind.invalidURL` with what is wrong and an example.
    public init(parsing text: String) throws(LedgerError) {
        func invalid(_ message: String) -> LedgerError {
            LedgerError(.invalidURL, ledger: text.isEmpty ? "(empty)" : Self.redacted(text), operation: "",
                        message: message + "; expected sqlite:PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw invalid("the SQLite ledger needs a file path after 'sqlite:'") }
            self = .sqlite(path: path)
            return
        }
        for scheme in ["postgresql://", "postgres://"] where text.hasPrefix(scheme) {
            self = .postgresql(try Self.parsePostgres(text, afterScheme: String(text.dropFirst(scheme.count)),
                                                      invalid: invalid))
            return
        }
        if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter }), !text[..<colon].isEmpty {
            throw invalid("unknown ledger scheme '\(text[..<colon])'")
        }
        throw invalid("'\(text)' names no ledger kind")
    }

    private static func parsePostgres(_ text: String, afterScheme rest: String,
                                      invalid: (String) -> LedgerError) throws(LedgerError) -> PostgresLocation {
        // authority = [user[:password]@]host[:port]; then /database, then ?parameters.
        let beforeQuery = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let slash = beforeQuery.firstIndex(of: "/")
        let authority = slash.map { beforeQuery[..<$0] } ?? beforeQuery[...]
        let database = slash.map { String(beforeQuery[beforeQuery.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : $0 }
        var user: String?
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            user = String(credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
            hostPort = authority[authority.index(after: at)...]
        }
        var host = String(hostPort)
        var port: Int?
        // [::1]:5432 or host:5432
        let portSeparator: String.Index?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw invalid("unclosed '[' in the host") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            portSeparator = after.hasPrefix(":") ? after.startIndex : nil
        } else {
            portSeparator = hostPort.lastIndex(of: ":")
            if let portSeparator { host = String(hostPort[..<portSeparator]) }
        }
        if let portSeparator {
            let portText = hostPort[hostPort.index(after: portSeparator)...]
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw invalid("the port '\(portText)' is not a number from 1 to 65535")
            }
            port = number
        }
        guard !host.isEmpty || text.contains("host=") else {
            throw invalid("the PostgreSQL URL names no host")
        }
        return PostgresLocation(connectionString: text, user: user, host: host, port: port, database: database)
    }

    /// The URL for messages: the password is replaced by `***`.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgresql(let location): return Self.redacted(location.connectionString)
        }
    }

    /// `text` with the password of a `scheme://user:password@` prefix (and `password=` parameters) hidden.
    static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        var result = text
        let afterScheme = result[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        if let at = afterScheme[..<authorityEnd].lastIndex(of: "@"),
           let colon = afterScheme[..<at].firstIndex(of: ":") {
            result.replaceSubrange(result.index(after: colon)..<at, with: "***")
        }
        if let query = result.firstIndex(of: "?") {
            let parameters = result[result.index(after: query)...].split(separator: "&").map { parameter in
                parameter.hasPrefix("password=") ? "password=***" : String(parameter)
            }
            result = String(result[...query]) + parameters.joined(separator: "&")
        }
        return result
    }
}
