import DFUBytes

/// What each function's arguments must be, and the checks that both the loader (on literal
/// arguments, as load errors at their column) and the evaluator (on computed ones) make, with
/// the same messages.
extension ExpressionFunction {
    /// What an argument must be.
    package enum ArgumentKind: Sendable {
        case integer, bytes, text
        /// Anything (a record, a list, a default value); checked at run time.
        case any

        var description: String {
            switch self {
            case .integer: return "an integer"
            case .bytes: return "bytes (e.g. image.data or message)"
            case .text: return "text"
            case .any: return "a value"
            }
        }
    }

    /// The kind of argument `index` (0-based); variadic functions repeat their last kind.
    package func argumentKind(at index: Int) -> ArgumentKind {
        let kinds: [ArgumentKind]
        switch self {
        case .min, .max, .alignDown, .u8, .u16le, .u16be, .u24le, .u24be, .u32le, .u32be, .u64le, .u64be:
            kinds = [.integer]
        case .len, .crc32, .crc16, .sha256, .reverse, .le, .be, .xor8, .fletcher16, .fletcher32, .adler32, .concat:
            kinds = [.bytes]
        case .slice: kinds = [.bytes, .integer]
        case .crc: kinds = [.text, .bytes]
        case .sum: kinds = [.bytes, .integer]
        case .get, .has, .find: kinds = [.any, .text, .any]
        case .unhex: kinds = [.text]
        }
        return kinds[Swift.min(index, kinds.count - 1)]
    }

    /// For `u8` ... `u64be`: how many bytes they write, in which order.
    package var integerEncoding: (width: Int, endianness: Endianness)? {
        switch self {
        case .u8: return (1, .little)
        case .u16le: return (2, .little)
        case .u16be: return (2, .big)
        case .u24le: return (3, .little)
        case .u24be: return (3, .big)
        case .u32le: return (4, .little)
        case .u32be: return (4, .big)
        case .u64le: return (8, .little)
        case .u64be: return (8, .big)
        default: return nil
        }
    }

    /// For `u8` ... `u64be`: why `value` cannot be written, or nil when it fits.
    package func doesNotFit(_ value: UInt64) -> String? {
        guard let (width, _) = integerEncoding, width < 8, value >> UInt64(width * 8) != 0 else { return nil }
        let maximum = (UInt64(1) << UInt64(width * 8)) - 1
        return "\(rawValue)(\(value)): \(value) does not fit in \(width == 1 ? "1 byte" : "\(width) bytes")"
            + " (0...\(maximum))"
    }

    /// For `sum`: why `bits` is not a width it adds up in, or nil.
    package static func sumWidthProblem(_ bits: UInt64) -> String? {
        ArithmeticChecksums.sumWidths.contains(where: { UInt64($0) == bits }) ? nil
            : "sum() adds up in 8, 16, 32 or 64 bits, not \(bits)"
    }

    /// For `crc`: the message for a name the CRC catalogue does not have.
    package static func unknownCRC(_ name: String) -> String {
        let hint = KeySuggestion.didYouMean(name, in: CRCCatalogue.names) ?? ""
        return "unknown CRC '\(name)'\(hint) (crc() takes a name or alias of the CRC RevEng catalogue, "
            + "e.g. 'CRC-16/XMODEM', 'CRC-32C'; profiles/README.md lists them)"
    }

    /// Why a literal written as argument `index` cannot be right, or nil.
    func problem(withLiteral node: Expression.Node, at index: Int) -> String? {
        let found: String
        let kind: ArgumentKind
        switch node {
        case .integer(let value):
            (found, kind) = ("the integer \(value)", .integer)
        case .boolean(let value):
            (found, kind) = ("the boolean \(value)", .any)
        case .string(let text):
            (found, kind) = ("the text '\(text)'", .text)
        default:
            return nil
        }
        let expected = argumentKind(at: index)
        guard expected == .any || expected == kind else {
            let ordinals = ["first", "second", "third"]
            let which = index < ordinals.count ? "its \(ordinals[index]) argument" : "argument \(index + 1)"
            return "'\(rawValue)' takes \(expected.description) as \(which), found \(found)"
        }
        switch (self, node) {
        case (.crc, .string(let name)) where CRCCatalogue.algorithm(named: name) == nil:
            return Self.unknownCRC(name)
        case (.sum, .integer(let bits)) where index == 1:
            return Self.sumWidthProblem(bits)
        case (_, .integer(let value)):
            return doesNotFit(value)
        default:
            return nil
        }
    }
}
