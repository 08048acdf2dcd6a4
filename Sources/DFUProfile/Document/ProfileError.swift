/// One problem found in a profile, rendered `FILE:LINE:COL: error: MESSAGE` (or
/// `FILE: error: MESSAGE` when it concerns a whole file or a profile name).
public struct ProfileError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Where the problem was written; nil when it concerns a whole file (unreadable) or a
    /// profile name that could not be found.
    public var location: SourceLocation?
    /// The file or profile name shown when there is no location.
    public var subject: String
    /// What is wrong and, where it helps, what to write instead.
    public var message: String

    /// A problem at a place in a file.
    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.subject = location.file
        self.message = message
    }

    /// A problem with a whole file or profile name.
    public init(_ message: String, subject: String) {
        self.location = nil
        self.subject = subject
        self.message = message
    }

    public var description: String {
        "\(location?.description ?? subject): error: \(message)"
    }
}

/// Every problem found while loading a profile, in file order. The loader collects as many as
/// it can instead of stopping at the first one.
public struct ProfileDiagnostics: Error, CustomStringConvertible, Sendable {
    /// The problems, ordered by file, line and column.
    public var errors: [ProfileError]

    /// Keeps `errors` ordered by file, line and column (stable for equal places).
    public init(_ errors: [ProfileError]) {
        self.errors = errors.enumerated().sorted { left, right in
            let a = left.element, b = right.element
            let keyA = (a.subject, a.location?.line ?? 0, a.location?.column ?? 0)
            let keyB = (b.subject, b.location?.line ?? 0, b.location?.column ?? 0)
            if keyA != keyB { return keyA < keyB }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// Diagnostics holding one problem.
    public init(_ error: ProfileError) {
        self.errors = [error]
    }

    /// One rendered error per line.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
