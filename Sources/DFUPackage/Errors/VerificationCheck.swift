/// The outcome of one `ImageCheck` on one image, passed or not, for `dfukit package verify`.
/// A check that cannot be made on this image (the hash of an encrypted MCUboot image covers
/// the plaintext) is `checked: false`: it does not fail the package, and every report says it
/// was not made.
public struct VerificationCheck: Sendable, Equatable, CustomStringConvertible {
    /// Which check this is.
    public let check: ImageCheck
    package let passed: Bool
    /// False when the check could not be made (then `passed` is true and `detail` says why).
    public let checked: Bool
    /// What was compared and what came out, in a sentence.
    public let detail: String
    /// The declared value, when the check compares two values.
    public let declared: String?
    /// The value computed from the image, when the check compares two values.
    public let actual: String?

    /// The outcome of `check`, described by `detail`.
    public init(check: ImageCheck, passed: Bool, detail: String, declared: String? = nil, actual: String? = nil) {
        self.check = check
        self.passed = passed
        self.checked = true
        self.detail = detail
        self.declared = declared
        self.actual = actual
    }

    /// A check this image does not allow, and why.
    package static func notCheckable(_ check: ImageCheck, because detail: String) -> VerificationCheck {
        VerificationCheck(check: check, detail: detail)
    }

    private init(check: ImageCheck, detail: String) {
        self.check = check
        self.passed = true
        self.checked = false
        self.detail = detail
        self.declared = nil
        self.actual = nil
    }

    /// "ok  ", "FAIL" or "skip", for reports.
    public var mark: String { !checked ? "skip" : passed ? "ok  " : "FAIL" }

    /// The check's name in reports, e.g. `hash`.
    public var name: String { check.rawValue }

    /// The failed check as an `ImageMismatch`; `nil` when it passed.
    package var mismatch: ImageMismatch? {
        guard !passed else { return nil }
        if check.isManifestCheck, check != .initPacketData, let declared, let actual {
            return ImageMismatch(check: check, declared: declared, actual: actual)
        }
        return ImageMismatch(check: check, declared: declared ?? "", actual: actual ?? "", detail: detail)
    }

    public var description: String { "\(name): \(!checked ? "not checked" : passed ? "passed" : "FAILED") (\(detail))" }
}
