/// `Command.op_code` in dfu-cc.proto (`OpCode`). An open set: a value this code does not know is
/// kept and printed by number.
public struct NordicOpCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `OpCode` value.
    public let rawValue: Int32
    /// The op code with this value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `RESET`.
    public static let reset = NordicOpCode(rawValue: 0)
    /// `INIT`: the command carries an `InitCommand`; every package's init packet has it.
    package static let initialize = NordicOpCode(rawValue: 1)

    /// The name in dfu-cc.proto, or `unknown(N)`.
    public var name: String {
        switch self {
        case .reset: return "RESET"
        case .initialize: return "INIT"
        default: return "unknown(\(rawValue))"
        }
    }

    public var description: String { name }
}
