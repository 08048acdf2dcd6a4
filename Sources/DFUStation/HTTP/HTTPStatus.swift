/// An HTTP status code and its reason phrase. An open set, like `HTTPMethod`: the named statics
/// are those the dashboard answers.
public struct HTTPStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The three-digit code.
    public var rawValue: Int

    /// The status `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 200: the answer follows.
    public static let ok = HTTPStatus(rawValue: 200)
    /// 400: the request is malformed (a control without an operator, a body that is not JSON).
    public static let badRequest = HTTPStatus(rawValue: 400)
    /// 401: a control without the right bearer token.
    public static let unauthorized = HTTPStatus(rawValue: 401)
    /// 403: a control on a server that has no token (its controls are off).
    public static let forbidden = HTTPStatus(rawValue: 403)
    /// 404: no such route, or no such device in the ledger.
    public static let notFound = HTTPStatus(rawValue: 404)
    /// 405: a known path with a method it does not take.
    public static let methodNotAllowed = HTTPStatus(rawValue: 405)
    /// 409: a control with nothing to do (the line is not halted, the device not quarantined).
    public static let conflict = HTTPStatus(rawValue: 409)
    /// 413: a request body larger than the server reads.
    public static let payloadTooLarge = HTTPStatus(rawValue: 413)
    /// 500: the data source failed.
    public static let internalServerError = HTTPStatus(rawValue: 500)
    /// 503: the data source cannot answer now (the ledger is unreachable, or not wired).
    public static let serviceUnavailable = HTTPStatus(rawValue: 503)

    /// The standard reason phrase, or "Status N" for a code not named here.
    public var reasonPhrase: String {
        switch rawValue {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(rawValue)"
        }
    }

    /// `404 Not Found`.
    public var description: String { "\(rawValue) \(reasonPhrase)" }
}
