import DFUBytes
import Foundation

/// One HTTP answer: a status, header fields and either bytes or a stream of server-sent events.
public struct HTTPResponse: Sendable {
    /// What follows the header.
    public enum Body: Sendable {
        /// A complete body.
        case bytes(Data)
        /// `text/event-stream`: the server runs the stream for as long as the client stays.
        case eventStream(DashboardEventStream)
    }

    /// The status.
    public var status: HTTPStatus
    /// The header fields, in order (`Content-Type` included).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// An answer with `body` and the given header fields.
    public init(status: HTTPStatus, headers: [(name: String, value: String)], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The complete body's bytes (empty for an event stream).
    public var bodyBytes: Data {
        if case .bytes(let data) = body { return data }
        return Data()
    }

    /// A JSON answer: `data` as it is, never cached.
    public static func json(_ data: Data, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"),
                                               ("Cache-Control", "no-store")], body: .bytes(data))
    }

    /// A JSON object made of string, Boolean and null values, with sorted keys (the error and
    /// control answers).
    public static func json(_ object: [String: JSONScalar], status: HTTPStatus = .ok) -> HTTPResponse {
        json(JSONScalar.encode(object), status: status)
    }

    /// The contract's error answer: `{"error": "message"}`.
    public static func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        json(["error": .string(message)], status: status)
    }
}

/// A JSON value without structure: what the server's own small answers hold.
public enum JSONScalar: Sendable, Equatable {
    /// A string.
    case string(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// `object` as compact JSON with sorted keys, strings escaped as JSON requires.
    public static func encode(_ object: [String: JSONScalar]) -> Data {
        let members = object.keys.sorted().map { key in "\(quoted(key)):\(object[key]!.text)" }
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }

    private var text: String {
        switch self {
        case .string(let value): Self.quoted(value)
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        }
    }

    /// `text` as a JSON string literal (DFUBytes' JSON quoting).
    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }
}
