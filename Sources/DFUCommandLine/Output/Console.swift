import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics and
/// progress. Tests substitute a recording console.
public protocol Console: AnyObject, Sendable {
    func out(_ text: String)
    func error(_ text: String)
    /// Writes without a newline (progress bars redraw with `\r`).
    func errorInPlace(_ text: String)
    /// Whether standard error is a terminal (then a progress bar is drawn).
    var isInteractive: Bool { get }
}

/// The process's real standard output and error.
public final class StandardConsole: Console, Sendable {
    public init() {}

    public func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    public func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    public func errorInPlace(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    public var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }
}
