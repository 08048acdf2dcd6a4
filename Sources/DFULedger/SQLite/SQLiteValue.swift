/// One SQLite value, as bound to a parameter or read from a column.
enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    init(_ text: String?) {
        self = text.map(SQLiteValue.text) ?? .null
    }

    var text: String? {
        switch self {
        case .text(let value): return value
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .null: return nil
        }
    }

    var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return Int64(exactly: value.rounded(.towardZero))
        case .text(let value): return Int64(value)
        case .null: return nil
        }
    }

    var real: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        case .text(let value): return Double(value)
        case .null: return nil
        }
    }
}
