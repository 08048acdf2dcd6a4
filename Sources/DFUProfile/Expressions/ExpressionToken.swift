/// A lexical token of the expression language, with its offset (in Unicode scalars) from the
/// start of the expression text.
struct ExpressionToken: Equatable {
    enum Kind: Equatable {
        case integer(UInt64)
        case identifier(String)
        case string(String)
        /// An operator or punctuation: `( ) , .` and every operator of `Expression`.
        case symbol(String)
        case end
    }

    var kind: Kind
    var offset: Int

    /// How the token reads in an error message.
    var quoted: String {
        switch kind {
        case .integer(let value): return "'\(value)'"
        case .identifier(let name): return "'\(name)'"
        case .string(let text): return "'\(text)'"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "the end of the expression"
        }
    }
}

/// A tokenizer failure: what is wrong, at which offset of the text.
struct ExpressionSyntaxError: Error {
    var message: String
    var offset: Int
}

/// Splits expression text into tokens.
enum ExpressionTokenizer {
    /// Two-character operators, tried before one-character ones.
    private static let pairs: Set<String> = ["<<", ">>", "<=", ">=", "==", "!=", "&&", "||"]
    private static let singles: Set<Character> = ["(", ")", ",", ".", "*", "/", "%", "+", "-", "<", ">", "&", "|", "!"]

    static func tokenize(_ text: String) throws(ExpressionSyntaxError) -> [ExpressionToken] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [ExpressionToken] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let character = Character(scalar)
            if character.isWhitespace {
                index += 1
            } else if isDigit(scalar) {
                tokens.append(try integer(scalars, &index))
            } else if isIdentifierStart(scalar) {
                let start = index
                while index < scalars.count, isIdentifierStart(scalars[index]) || isDigit(scalars[index]) {
                    index += 1
                }
                tokens.append(ExpressionToken(kind: .identifier(string(scalars[start..<index])), offset: start))
            } else if character == "'" || character == "\"" {
                tokens.append(try quotedString(scalars, &index, quote: scalar))
            } else {
                let pair = index + 1 < scalars.count ? string(scalars[index...(index + 1)]) : ""
                if pairs.contains(pair) {
                    tokens.append(ExpressionToken(kind: .symbol(pair), offset: index))
                    index += 2
                } else if singles.contains(character) {
                    tokens.append(ExpressionToken(kind: .symbol(String(character)), offset: index))
                    index += 1
                } else if character == "=" {
                    throw ExpressionSyntaxError(message: "'=' is not an operator; use '==' to compare", offset: index)
                } else {
                    throw ExpressionSyntaxError(message: "unexpected character '\(character)'", offset: index)
                }
            }
        }
        tokens.append(ExpressionToken(kind: .end, offset: scalars.count))
        return tokens
    }

    private static func integer(_ scalars: [Unicode.Scalar], _ index: inout Int) throws(ExpressionSyntaxError)
        -> ExpressionToken {
        let start = index
        var radix = 10
        if scalars[index] == "0", index + 1 < scalars.count, scalars[index + 1] == "x" || scalars[index + 1] == "X" {
            radix = 16
            index += 2
        }
        let digitsStart = index
        while index < scalars.count, isIdentifierStart(scalars[index]) || isDigit(scalars[index]) {
            index += 1
        }
        let digits = string(scalars[digitsStart..<index])
        let written = string(scalars[start..<index])
        guard !digits.isEmpty, digits.allSatisfy({ radix == 16 ? $0.isHexDigit : $0.isASCII && $0.isNumber }) else {
            throw ExpressionSyntaxError(message: "malformed number '\(written)'", offset: start)
        }
        guard let value = UInt64(digits, radix: radix) else {
            throw ExpressionSyntaxError(message: "number '\(written)' does not fit in 64 bits", offset: start)
        }
        return ExpressionToken(kind: .integer(value), offset: start)
    }

    private static func quotedString(_ scalars: [Unicode.Scalar], _ index: inout Int, quote: Unicode.Scalar)
        throws(ExpressionSyntaxError) -> ExpressionToken {
        let start = index
        index += 1
        var text = ""
        while index < scalars.count {
            if scalars[index] == quote {
                index += 1
                return ExpressionToken(kind: .string(text), offset: start)
            }
            text.unicodeScalars.append(scalars[index])
            index += 1
        }
        throw ExpressionSyntaxError(message: "unterminated string: add the closing \(Character(quote))", offset: start)
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}
