import DFUProfile
import Foundation
import XCTest

/// The repository's root, from this file's place in `Tests/DFUProfileTests`.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

let vendorProfilePath = repositoryRoot.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path

/// The rendered errors of loading `text`, or a test failure if it loads.
func loadErrors(_ text: String, path: String = "mini.yaml", file: StaticString = #filePath, line: UInt = #line)
    -> [String] {
    do {
        _ = try ProfileLoader.load(text: text, path: path)
        XCTFail("the profile loaded, but errors were expected", file: file, line: line)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}

/// 1-based line and column of the `occurrence`-th (1-based) appearance of `needle` in `text`.
func position(of needle: String, in text: String, occurrence: Int = 1) -> (line: Int, column: Int) {
    var seen = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var searchStart = line.startIndex
        while let range = line.range(of: needle, range: searchStart..<line.endIndex) {
            seen += 1
            if seen == occurrence {
                return (index + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1)
            }
            searchStart = range.upperBound
        }
    }
    return (0, 0)
}

/// Checks that each case's edit of `base` is reported at the exact place and with the message
/// the case names (`BrokenProfileTests.Case`).
func assertEachReportedAtItsPlace(_ cases: [BrokenProfileTests.Case], in base: String, path: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
    for testCase in cases {
        XCTAssertTrue(base.contains(testCase.replace), "\(testCase.name): the base lacks the text to replace",
                      file: file, line: line)
        let text = base.replacingOccurrences(of: testCase.replace, with: testCase.with)
        let place = position(of: testCase.at, in: text, occurrence: testCase.occurrence)
        XCTAssertNotEqual(place.line, 0, "\(testCase.name): '\(testCase.at)' not found", file: file, line: line)
        let prefix = "\(path):\(place.line):\(place.column + testCase.columnOffset): error: "
        let errors = loadErrors(text, path: path, file: file, line: line)
        XCTAssertTrue(errors.contains { $0.hasPrefix(prefix) && $0.contains(testCase.message) },
                      "\(testCase.name): expected \(prefix)...\(testCase.message)...; got:\n"
                          + errors.joined(separator: "\n"), file: file, line: line)
    }
}

/// An expression tree written fully parenthesised, for golden comparisons.
func render(_ node: DFUProfile.Expression.Node) -> String {
    switch node {
    case .integer(let value): return String(value)
    case .boolean(let value): return String(value)
    case .string(let text): return "'\(text)'"
    case .path(let components): return components.joined(separator: ".")
    case .call(let function, let arguments):
        return "\(function.rawValue)(\(arguments.map(render).joined(separator: ", ")))"
    case .unary(let unary, let operand): return "(\(unary.rawValue)\(render(operand)))"
    case .binary(let binary, let left, let right): return "(\(render(left)) \(binary.rawValue) \(render(right)))"
    }
}

/// A location-free description of a profile, to compare profiles loaded from different files.
func canonicalDescription(_ profile: Profile) -> String {
    var parts: [String] = []
    var text = ""
    dump(profile.name, to: &text)
    dump(profile.summary, to: &text)
    dump(profile.version, to: &text)
    dump(profile.match, to: &text)
    dump(profile.defaults, to: &text)
    for characteristic in profile.characteristics {
        // A Set's order differs between instances: dump its members sorted.
        dump((characteristic.name, characteristic.service, characteristic.uuid,
              characteristic.requiredProperties.map(\.rawValue).sorted(), characteristic.writeType,
              characteristic.framing, characteristic.segmentSize, characteristic.subscribe), to: &text)
    }
    for key in profile.framings.keys.sorted() { dump(profile.framings[key], to: &text) }
    for key in profile.codeTables.keys.sorted() {
        let table = profile.codeTables[key]!
        dump(table.name, to: &text)
        for code in table.entries.keys.sorted() { dump((code, table.entries[code]!), to: &text) }
    }
    for key in profile.commands.keys.sorted() { dump(profile.commands[key], to: &text) }
    for key in profile.notifications.keys.sorted() { dump(profile.notifications[key], to: &text) }
    dump(profile.resume, to: &text)
    dump(profile.procedure, to: &text)
    for line in text.split(separator: "\n") {
        // SourceLocation values and their parts differ between files by design.
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.contains(profile.path) || trimmed.hasPrefix("- line:") || trimmed.hasPrefix("- column:") {
            continue
        }
        parts.append(String(line))
    }
    return parts.joined(separator: "\n")
}

/// Converts a YAML node tree to equivalent JSON text: plain decimal integers, booleans and null
/// become JSON literals; everything else (including hex integers) becomes a JSON string.
func jsonText(_ node: ProfileNode, indent: String = "") -> String {
    let inner = indent + "  "
    switch node.content {
    case .scalar(let text, let style):
        if style.isPlain {
            if node.isNull { return "null" }
            if text == "true" || text == "false" { return text }
            if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) { return text }
        }
        return jsonString(text)
    case .sequence(let items):
        if items.isEmpty { return "[]" }
        return "[\n" + items.map { inner + jsonText($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
    case .mapping(let entries):
        if entries.isEmpty { return "{}" }
        let lines = entries.map { inner + jsonString($0.key.scalar ?? "") + ": " + jsonText($0.value, indent: inner) }
        return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
    }
}

private func jsonString(_ text: String) -> String {
    var escaped = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped + "\""
}
