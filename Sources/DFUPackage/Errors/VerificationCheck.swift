/// The outcome of one `ImageCheck` on one image, passed or not, for `dfukit package verify`.
public struct VerificationCheck: Sendable, Equatable, CustomStringConvertible {
    public let check: ImageCheck
    public let passed: Bool
    /// What was compared and what came out, in a sentence.
    public let detail: String
    /// The declared value, when the check compares two values.
    public let declared: String?
    /// The value computed from the image, when the check compares two values.
    public let actual: String?

    public init(check: ImageCheck, passed: Bool, detail: String, declared: String? = nil, actual: String? = nil) {
        self.check = check
        self.passed = passed
        self.detail = detail
        self.declared = declared
        self.actual = actual
    }

    /// The check's name in reports, e.g. `hash`.
    public var name: String { check.rawValue }

    /// The failed check as an `ImageMismatch`; `nil` when it passed.
    public var mismatch: ImageMismatch? {
        guard !passed else { return nil }
        if check.isManifestCheck, check != .initPacketData, let declared, let actual {
            return ImageMismatch(check: check, declared: declared, actual: actual)
        }
        return ImageMismatch(check: check, declared: declared ?? "", actual: actual ?? "", detail: detail)
    }

    public var description: String { "\(name): \(passed ? "passed" : "FAILED") (\(detail))" }
}
