/// A command line that cannot be run; printed with a pointer to `--help`, exit 64.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var command: String

    public init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }

    public var description: String { "\(message)\nSee '\(command) --help'." }
}
