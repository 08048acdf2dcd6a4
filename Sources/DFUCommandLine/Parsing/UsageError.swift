/// A command line that cannot be run; printed with a pointer to `--help`, exit 64.
///
/// A command that reads a file while checking its arguments (a line file) reports that file's
/// own diagnostics (`FILE:LINE:COL: error: ...`) with `invalidInput`: printed as they are, with
/// no second `error:` in front, exit 65.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var command: String
    /// The exit status: 64, or 65 for an input file that is invalid.
    public var exitCode: Int32 = ExitCode.usage
    /// Whether `message` already says what it is (diagnostics in `FILE:LINE:COL: error:` form).
    public var isDiagnostic = false

    public init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }

    /// An input file's diagnostics, each already `FILE:LINE:COL: error: MESSAGE`: exit 65.
    public static func invalidInput(_ diagnostics: String, command: String) -> UsageError {
        var error = UsageError(diagnostics, command: command)
        error.exitCode = ExitCode.dataError
        error.isDiagnostic = true
        return error
    }

    public var description: String { "\(message)\nSee '\(command) --help'." }

    /// What the command line prints on standard error.
    public var printed: String { isDiagnostic ? description : "error: \(description)" }
}
