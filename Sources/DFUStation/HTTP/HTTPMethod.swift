/// An HTTP request method, as the request line spells it. An open set: a method this server does
/// not know is still carried (and answered 405), never turned into another.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method's name, upper case as sent (`GET`).
    public var rawValue: String

    /// The method named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: a `GET` without the body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: the line controls.
    public static let post = HTTPMethod(rawValue: "POST")

    /// The method's name.
    public var description: String { rawValue }
}
