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
    /// When the check is one the device makes only in some configuration, the profile
    /// parameter that turns it off and the value that does (a Telink image's CRC-32 trailer,
    /// checked only with the SDK's firmware check on: `firmware_check` 0).
    public private(set) var waiver: (parameter: String, value: UInt64)?

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

    /// The same check, waived when `parameter` is `value`.
    package func waived(when parameter: String, is value: UInt64) -> VerificationCheck {
        var check = self
        check.waiver = (parameter, value)
        return check
    }

    /// Whether `parameters` (a profile's integer parameters, as the run sets them) turn the check off.
    package func isWaived(by parameters: [String: UInt64]) -> Bool {
        guard let waiver else { return false }
        return parameters[waiver.parameter] == waiver.value
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

    /// Equal outcomes of the same check, waived the same way.
    public static func == (left: VerificationCheck, right: VerificationCheck) -> Bool {
        left.check == right.check && left.passed == right.passed && left.checked == right.checked && left.detail == right.detail
            && left.declared == right.declared && left.actual == right.actual
            && left.waiver?.parameter == right.waiver?.parameter && left.waiver?.value == right.waiver?.value
    }
}
