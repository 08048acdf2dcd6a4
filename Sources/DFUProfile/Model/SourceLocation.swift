/// Where something was written in a profile file: 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COL`, the prefix of every profile diagnostic.
    public var description: String { "\(file):\(line):\(column)" }
}
