import Foundation

/// One HTTP request as the router sees it: already parsed and decoded by the server (or built by
/// a test), so routing needs no socket.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path, percent-decoded, without the query (`/api/devices/C0:FF:EE:00:00:01`).
    public var path: String
    /// The query's parameters, decoded (`?line=east` gives `["line": "east"]`; a name given
    /// without `=` maps to the empty string; the first of repeated names wins).
    public var query: [String: String]
    /// The header fields, by lower-case name.
    public var headers: [String: String]
    /// The body (empty for `GET`).
    public var body: Data

    /// A request for `path`; header names are matched without regard to case.
    public init(method: HTTPMethod, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of header `name` (any case), or nil.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
