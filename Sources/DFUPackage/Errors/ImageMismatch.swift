/// A failed `ImageCheck`: what the manifest declares versus what the image bytes give.
public struct ImageMismatch: Sendable, Equatable, CustomStringConvertible {
    public let check: ImageCheck
    /// The manifest's value, formatted as in the manifest.
    public let declared: String
    /// The value computed from the image bytes, formatted the same way.
    public let actual: String

    public init(check: ImageCheck, declared: String, actual: String) {
        self.check = check
        self.declared = declared
        self.actual = actual
    }

    public var description: String {
        "\(check.rawValue) mismatch: manifest says \(declared), image has \(actual)"
    }
}
