/// Something the preflight found that does not stop the operation but should be shown: a
/// package kind sent by force, an image packaged for another profile, a check only the device
/// can make.
public struct PreflightNote: Sendable, Equatable, CustomStringConvertible {
    /// How much it matters.
    public enum Level: String, Sendable {
        /// Something unusual was asked for and is done anyway.
        case warning
        /// For information.
        case note
    }

    /// How much it matters.
    public var level: Level
    /// What it is, in one or more lines.
    public var text: String

    /// A note at `level`.
    public init(_ level: Level, _ text: String) {
        self.level = level
        self.text = text
    }

    /// `warning: TEXT` or `note: TEXT`.
    public var description: String { "\(level.rawValue): \(text)" }
}
