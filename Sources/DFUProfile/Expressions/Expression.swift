/// A small expression language used in profiles for values, conditions and checks:
/// integers (`42`, `0x1F`), `true`/`false`, strings (`'text'`), paths (`image.size`,
/// `start.max_chunk`), calls (`min(a, b)`, `crc32(image.data)`), unary `!` `-`, and binary
/// `* / % + - << >> & | < <= > >= == != && ||` with the usual precedence and parentheses.
public struct Expression: Sendable, CustomStringConvertible {
    public indirect enum Node: Sendable, Equatable {
        case integer(UInt64)
        case boolean(Bool)
        case string(String)
        /// `a.b.c` as ["a", "b", "c"].
        case path([String])
        case call(ExpressionFunction, [Node])
        case unary(UnaryOperator, Node)
        case binary(BinaryOperator, Node, Node)
    }

    public enum UnaryOperator: String, Sendable {
        case not = "!"
        case negate = "-"
    }

    public enum BinaryOperator: String, Sendable, CaseIterable {
        case multiply = "*", divide = "/", remainder = "%"
        case add = "+", subtract = "-"
        case shiftLeft = "<<", shiftRight = ">>"
        case bitAnd = "&", bitOr = "|"
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case equal = "==", notEqual = "!="
        case and = "&&", or = "||"
    }

    public var node: Node
    /// The text as written (for diagnostics).
    public var text: String
    public var location: SourceLocation

    public init(node: Node, text: String, location: SourceLocation) {
        self.node = node
        self.text = text
        self.location = location
    }

    public var description: String { text }
}

/// The functions an expression may call. `ExpressionFunction+Arguments.swift` says what each
/// argument must be.
public enum ExpressionFunction: String, Sendable, CaseIterable {
    case min, max
    /// Length of a byte string.
    case len
    /// `slice(bytes, start, end)`: bytes[start..<end].
    case slice
    /// CRC-32 (IEEE, zlib) of a byte string: `crc('CRC-32/ISO-HDLC', bytes)`.
    case crc32
    /// CRC-16/CCITT-FALSE of a byte string: `crc('CRC-16/IBM-3740', bytes)`.
    case crc16
    /// `crc('NAME', bytes)`: the CRC named by the CRC RevEng catalogue (a name or an alias, any
    /// case), as an integer.
    case crc
    /// `sum(bytes, bits)`: the bytes added up modulo 2^bits (8, 16, 32 or 64).
    case sum
    /// Every byte XORed together.
    case xor8
    /// Fletcher-16 over bytes; Fletcher-32 over 16-bit little-endian words.
    case fletcher16, fletcher32
    /// Adler-32 (zlib).
    case adler32
    /// SHA-256 of a byte string.
    case sha256
    /// The bytes in reverse order.
    case reverse
    /// `align_down(value, step)`: the largest multiple of step <= value.
    case alignDown = "align_down"
    /// The unsigned integer a byte string of at most 8 bytes holds, little-endian.
    case le
    /// The same, big-endian.
    case be
    /// An integer as 1, 2, 3, 4 or 8 bytes, little- or big-endian (the reverse of `le`/`be`);
    /// a value too large for them is an error.
    case u8, u16le, u16be, u24le, u24be, u32le, u32be, u64le, u64be
    /// `concat(a, b, ...)`: byte strings one after the other.
    case concat
    /// `get(record, 'key', default)`: a field of a record (a device's CBOR answer), or the
    /// default when it has none.
    case get
    /// `has(list, 'key', value)`: whether some record in the list has `key` equal to `value`.
    case has
    /// `find(list, 'key', value)`: the first record in the list whose `key` equals `value`, or
    /// an empty record (so `get(find(...), 'confirmed', false)` reads a device's image list).
    case find
    /// `unhex('0a1b')`: the bytes written in hex (for command arguments).
    case unhex

    public var arity: ClosedRange<Int> {
        switch self {
        case .min, .max, .concat: return 2...8
        case .len, .crc32, .crc16, .sha256, .reverse, .le, .be, .unhex, .xor8, .fletcher16, .fletcher32, .adler32,
             .u8, .u16le, .u16be, .u24le, .u24be, .u32le, .u32be, .u64le, .u64be:
            return 1...1
        case .get, .has, .find: return 3...3
        case .slice: return 3...3
        case .alignDown, .crc, .sum: return 2...2
        }
    }
}

extension Expression {
    /// The name that, in a request field's `value`, is the bytes of the fields before it.
    public static let messageName = "message"
}

extension Expression.Node {
    /// Whether a path starting with `root` appears anywhere in the expression (the encoder binds
    /// `message` only for the fields whose value uses it).
    public func mentions(root: String) -> Bool {
        switch self {
        case .integer, .boolean, .string: return false
        case .path(let components): return components.first == root
        case .call(_, let arguments): return arguments.contains { $0.mentions(root: root) }
        case .unary(_, let operand): return operand.mentions(root: root)
        case .binary(_, let left, let right): return left.mentions(root: root) || right.mentions(root: root)
        }
    }
}
