/// Why PEM text could not be decoded. Line numbers are 1-based.
package enum PEMError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No "-----BEGIN <label>-----" line was found.
    case missingBeginLine
    /// The block that begins on `beginLine` has no "-----END <label>-----" line.
    case missingEndLine(label: String, beginLine: Int)
    /// The END line on `line` names `found` instead of the BEGIN line's `expected`.
    case mismatchedEndLabel(expected: String, found: String, line: Int)
    /// The body line `line` is not base64 (encrypted PEM headers such as "Proc-Type:" land here).
    case invalidBase64(line: Int)
    /// The block between BEGIN and END holds no data.
    case emptyBody(label: String, beginLine: Int)

    package var description: String {
        switch self {
        case .missingBeginLine:
            return "no \"-----BEGIN ...-----\" line: not PEM text"
        case let .missingEndLine(label, beginLine):
            return "the \(label) block that begins on line \(beginLine) has no \"-----END \(label)-----\" line"
        case let .mismatchedEndLabel(expected, found, line):
            return "line \(line) ends a \(found) block, but the block began as \(expected)"
        case let .invalidBase64(line):
            return "line \(line) is not base64 (encrypted PEM is not supported)"
        case let .emptyBody(label, beginLine):
            return "the \(label) block that begins on line \(beginLine) is empty"
        }
    }
}
