/// `halt-when: failed >= K of last N`: a line halts itself when at least `failures` of its last
/// `window` finished attempts (succeeded or failed, on every station of the line, as the ledger
/// has them) failed. Fewer than `window` attempts so far count as they are: three failures in the
/// first three attempts of `failed >= 3 of last 10` halt the line.
public struct HaltRule: Sendable, Hashable, CustomStringConvertible {
    /// K: how many failures halt the line (1...`window`).
    public let failures: Int
    /// N: how many of the line's latest finished attempts are looked at (1...`maximumWindow`).
    public let window: Int

    /// The largest window: the ledger reads the line's last N attempts after every attempt.
    public static let maximumWindow = 1000

    /// A rule that halts after `failures` failed of the last `window` attempts. Throws when
    /// `failures` is not in 1...`window` or `window` not in 1...`maximumWindow`.
    public init(failures: Int, window: Int) throws(HaltRuleError) {
        guard (1...Self.maximumWindow).contains(window) else {
            throw HaltRuleError("N (the window) must be in 1...\(Self.maximumWindow), not \(window)", column: nil)
        }
        guard (1...window).contains(failures) else {
            throw HaltRuleError("K must be in 1...N (\(window)), not \(failures)", column: nil)
        }
        self.failures = failures
        self.window = window
    }

    /// Parses `failed >= K of last N` (spaces between the words as you like, `>=` or `≥`).
    /// Throws a `HaltRuleError` with the 1-based column of the first thing that is wrong.
    public init(parsing text: String) throws(HaltRuleError) {
        var scanner = HaltRuleScanner(text)
        try scanner.expect("failed")
        if !scanner.accept(">="), !scanner.accept("≥") {
            throw HaltRuleError("expected '>=' after 'failed'", column: scanner.column)
        }
        let (failures, failuresColumn) = try scanner.number("K")
        try scanner.expect("of")
        try scanner.expect("last")
        let (window, windowColumn) = try scanner.number("N")
        scanner.skipSpaces()
        guard scanner.atEnd else {
            throw HaltRuleError("unexpected '\(scanner.rest)' after the rule", column: scanner.column)
        }
        guard window >= 1, window <= Self.maximumWindow else {
            throw HaltRuleError("N (the window) must be in 1...\(Self.maximumWindow), not \(window)", column: windowColumn)
        }
        guard failures >= 1, failures <= window else {
            throw HaltRuleError("K must be in 1...N (\(window)), not \(failures)", column: failuresColumn)
        }
        self.failures = failures
        self.window = window
    }

    /// `failed >= K of last N`, the form it is parsed from.
    public var description: String { "failed >= \(failures) of last \(window)" }

    /// Whether the rule holds over `outcomes`, the line's finished attempts oldest first (true:
    /// failed); only the last `window` count.
    public func holds(over outcomes: [Bool]) -> Bool {
        outcomes.suffix(window).count { $0 } >= failures
    }
}

/// A malformed `failed >= K of last N`: what is wrong and at which column of the rule's text.
public struct HaltRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "expected a number (K) after '>='".
    public var message: String
    /// The 1-based column in the rule's text; nil for a rule built from numbers.
    public var column: Int?

    /// An error saying `message` at `column`.
    public init(_ message: String, column: Int?) {
        self.message = message
        self.column = column
    }

    /// The message with the rule's shape, e.g. "expected 'of' at column 14 (the rule is 'failed >= K of last N')".
    public var description: String {
        message + (column.map { " at column \($0)" } ?? "") + " (the rule is 'failed >= K of last N', e.g. 'failed >= 3 of last 10')"
    }
}

/// Reads a rule's words left to right, knowing its column.
private struct HaltRuleScanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) { characters = Array(text) }

    var column: Int { index + 1 }
    var atEnd: Bool { index == characters.count }
    var rest: String { String(characters[index...]) }

    mutating func skipSpaces() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }

    mutating func accept(_ word: String) -> Bool {
        skipSpaces()
        let word = Array(word)
        guard characters.count - index >= word.count,
              characters[index..<index + word.count].elementsEqual(word, by: { $0.lowercased() == $1.lowercased() })
        else { return false }
        // A whole word: 'of' does not match the start of 'off'.
        let end = index + word.count
        if word.last?.isLetter == true, end < characters.count, characters[end].isLetter { return false }
        index = end
        return true
    }

    mutating func expect(_ word: String) throws(HaltRuleError) {
        guard accept(word) else {
            let found = atEnd ? "the end" : "'\(String(characters[index...].prefix { !$0.isWhitespace }))'"
            throw HaltRuleError("expected '\(word)', found \(found)", column: column)
        }
    }

    mutating func number(_ name: String) throws(HaltRuleError) -> (Int, Int) {
        skipSpaces()
        let start = index
        while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
        guard index > start, let value = Int(String(characters[start..<index])) else {
            let found = atEnd ? "the end" : "'\(String(characters[index...].prefix { !$0.isWhitespace }))'"
            throw HaltRuleError("expected a number (\(name)), found \(found)", column: start + 1)
        }
        return (value, start + 1)
    }
}
