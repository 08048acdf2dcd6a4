/// A small expression language used in profiles for values, conditions and checks:
/// integers (`42`, `0x1F`), `true`/`false`, strings (`'text'`), paths (`image.size`,
/// `start.max_chunk`), calls (`min(a, b)`, `crc32(image.data)`), unary `!` `-`, and binary
/// `* / % + - << >> & | < <= > >= == != && ||` with the usual precedence and parentheses.
public struct Expression: Sendable, CustomStringConvertible {
    /// The parsed form of an expression.
    public indirect enum Node: Sendable, Equatable {
        /// An integer literal, decimal or `0x` hex.
        case integer(UInt64)
        /// `true` or `false`.
        case boolean(Bool)
        /// A quoted string, without its quotes.
        case string(String)
        /// `a.b.c` as ["a", "b", "c"].
        case path([String])
        /// A call of a built-in function with its arguments.
        case call(ExpressionFunction, [Node])
        /// A unary operator applied to its operand.
        case unary(UnaryOperator, Node)
        /// A binary operator and its left and right operands.
        case binary(BinaryOperator, Node, Node)
    }

    /// The unary operators; the raw value is how each is written.
    public enum UnaryOperator: String, Sendable {
        /// Logical not of a condition.
        case not = "!"
        /// Two's-complement negation (64-bit, wrapping).
        case negate = "-"
    }

    /// The binary operators, by precedence from tightest; the raw value is how each is written.
    public enum BinaryOperator: String, Sendable, CaseIterable {
        /// Arithmetic on unsigned 64-bit integers (division by zero is an evaluation error).
        case multiply = "*", divide = "/", remainder = "%"
        /// Addition and subtraction (64-bit, wrapping).
        case add = "+", subtract = "-"
        /// Bit shifts.
        case shiftLeft = "<<", shiftRight = ">>"
        /// Bitwise and, or.
        case bitAnd = "&", bitOr = "|"
        /// Integer comparisons.
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        /// Equality of two values of the same kind (integers, booleans, bytes, text).
        case equal = "==", notEqual = "!="
        /// Logical and, or of conditions.
        case and = "&&", or = "||"
    }

    package var node: Node
    /// The text as written (for diagnostics).
    public var text: String
    /// Where the expression was written.
    public var location: SourceLocation

    /// An expression parsed to `node` from `text`, written at `location`.
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
    /// The smaller or larger of integers.
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

    package var arity: ClosedRange<Int> {
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
    package static let messageName = "message"
}

extension Expression.Node {
    /// Whether a path starting with `root` appears anywhere in the expression (the encoder binds
    /// `message` only for the fields whose value uses it).
    package func mentions(root: String) -> Bool {
        switch self {
        case .integer, .boolean, .string: return false
        case .path(let components): return components.first == root
        case .call(_, let arguments): return arguments.contains { $0.mentions(root: root) }
        case .unary(_, let operand): return operand.mentions(root: root)
        case .binary(_, let left, let right): return left.mentions(root: root) || right.mentions(root: root)
        }
    }
}
