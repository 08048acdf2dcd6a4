/// A recording that cannot be written or read: which file, where in it, what is wrong and what
/// to do.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The recording's path (or the source name given to `RecordingReader.read(text:source:)`).
    public var path: String
    /// The 1-based line, when the problem is in a line of the file.
    public var line: Int?
    /// The 1-based column (in characters) within the line, when known.
    public var column: Int?
    /// What is wrong.
    public var message: String
    /// What to do about it.
    public var remedy: String

    /// An error about `path`, at `line`:`column` where given.
    public init(path: String, line: Int? = nil, column: Int? = nil, message: String, remedy: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.remedy = remedy
    }

    /// `PATH:LINE:COL: error: MESSAGE`, then what to do on the next line.
    public var description: String {
        var place = path
        if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return "\(place): error: \(message)\n  \(remedy)"
    }

    /// The recording file cannot be created or written.
    static func cannotWrite(_ path: String, _ reason: String) -> RecordingError {
        RecordingError(path: path, message: "cannot write the recording: \(reason)",
                       remedy: "record to a file in a directory that exists and that you may write to (--record FILE)")
    }
}
