/// Where something was written in a profile file: 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as it was given.
    public var file: String
    /// The line, from 1 (0 when unknown).
    public var line: Int
    /// The column, from 1, counted in characters.
    public var column: Int

    /// The place `file:line:column`.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COL`, the prefix of every profile diagnostic.
    public var description: String { "\(file):\(line):\(column)" }
}
