/// A failed `ImageCheck`: what the package declares versus what the image bytes give.
public struct ImageMismatch: Sendable, Equatable, CustomStringConvertible {
    /// The check that failed.
    public let check: ImageCheck
    /// The declared value (manifest or init packet), formatted as there.
    public let declared: String
    /// The value computed from the image bytes, formatted the same way.
    public let actual: String
    /// A sentence that replaces the "declared versus actual" wording when set (e.g. why an init
    /// packet does not decode).
    public let detail: String?

    /// A failed `check`: the package says `declared`, the bytes give `actual`.
    public init(check: ImageCheck, declared: String, actual: String, detail: String? = nil) {
        self.check = check
        self.declared = declared
        self.actual = actual
        self.detail = detail
    }

    public var description: String {
        if let detail { return "\(check.rawValue) check failed: \(detail)" }
        let source = check.isManifestCheck ? "manifest" : check.isMCUbootCheck ? "MCUboot TLV" : "init packet"
        return "\(check.rawValue) mismatch: \(source) says \(declared), image has \(actual)"
    }
}
