import DFUProfile
import Foundation
import XCTest

/// The document layer: node tree, locations, styles, JSON through the same parser.
final class DocumentTests: XCTestCase {
    func testTreeLocationsAndStyles() throws {
        let text = """
            a: 1
            b:
              - 'quoted'
              - "double"
              - plain text
            c: { x: 0x10, y: }

            """
        let root = try ProfileDocument.parse(text: text, file: "t.yaml")
        let entries = try XCTUnwrap(root.mapping)
        XCTAssertEqual(entries.map { $0.key.scalar }, ["a", "b", "c"])
        XCTAssertEqual(entries[0].key.location, SourceLocation(file: "t.yaml", line: 1, column: 1))
        XCTAssertEqual(entries[0].value.location, SourceLocation(file: "t.yaml", line: 1, column: 4))
        let items = try XCTUnwrap(entries[1].value.sequence)
        XCTAssertEqual(items.map(\.scalar), ["quoted", "double", "plain text"])
        guard case .scalar(_, .singleQuoted) = items[0].content, case .scalar(_, .doubleQuoted) = items[1].content,
              case .scalar(_, .plain) = items[2].content else {
            return XCTFail("styles were not kept")
        }
        XCTAssertEqual(items[1].location, SourceLocation(file: "t.yaml", line: 4, column: 5))
        let inner = try XCTUnwrap(entries[2].value.mapping)
        XCTAssertEqual(inner[0].value.scalar, "0x10")
        XCTAssertTrue(inner[1].value.isNull)
        XCTAssertEqual(inner[1].key.location, SourceLocation(file: "t.yaml", line: 6, column: 15))
    }

    func testSyntaxErrorHasLineAndColumn() {
        do {
            _ = try ProfileDocument.parse(text: "a: 1\nb: [1, 2\nc: 3\n", file: "t.yaml")
            XCTFail("parsed")
        } catch {
            XCTAssertEqual(error.errors.count, 1)
            XCTAssertTrue(error.description.hasPrefix("t.yaml:3:2: error: YAML syntax error: "), error.description)
        }
    }

    func testDuplicateKeysAreAllReported() {
        do {
            _ = try ProfileDocument.parse(text: "a: 1\nb: { x: 1, x: 2 }\na: 3\n", file: "t.yaml")
            XCTFail("parsed")
        } catch {
            XCTAssertEqual(error.description.split(separator: "\n"), [
                "t.yaml:2:12: error: duplicate key 'x' (first written at line 2, column 6)",
                "t.yaml:3:1: error: duplicate key 'a' (first written at line 1, column 1)",
            ])
        }
    }

    func testSecondDocumentIsRejected() {
        do {
            _ = try ProfileDocument.parse(text: "a: 1\n---\nb: 2\n", file: "t.yaml")
            XCTFail("parsed")
        } catch {
            XCTAssertTrue(error.description.hasPrefix("t.yaml:2:1: error: a profile file holds exactly one"),
                          error.description)
        }
    }

    func testJSONGoesThroughTheSameParser() throws {
        let root = try ProfileDocument.parse(text: "{\n  \"a\": [1, \"x\"],\n  \"b\": true\n}", file: "t.json")
        let entries = try XCTUnwrap(root.mapping)
        XCTAssertEqual(entries.map { $0.key.scalar }, ["a", "b"])
        XCTAssertEqual(entries[0].key.location, SourceLocation(file: "t.json", line: 2, column: 3))
        guard case .scalar("1", .plain) = entries[0].value.sequence?[0].content,
              case .scalar("x", .doubleQuoted) = entries[0].value.sequence?[1].content else {
            return XCTFail("JSON numbers must be plain scalars and JSON strings quoted ones")
        }
    }

    /// The vendor profile converted to JSON loads into the same profile.
    func testJSONProfileLoadsIdenticallyToYAML() throws {
        let yamlText = try String(contentsOfFile: vendorProfilePath, encoding: .utf8)
        let json = jsonText(try ProfileDocument.parse(text: yamlText, file: vendorProfilePath))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfukit-profile-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jsonPath = directory.appendingPathComponent("vendor-ctrlpt.json").path
        try json.write(toFile: jsonPath, atomically: true, encoding: .utf8)

        let fromYAML = try ProfileLoader.load(path: vendorProfilePath)
        let fromJSON = try ProfileLoader.load(path: jsonPath)
        XCTAssertEqual(fromJSON.path, jsonPath)
        XCTAssertEqual(fromJSON.commands.count, 6)
        let yamlDescription = canonicalDescription(fromYAML)
        XCTAssertGreaterThan(yamlDescription.count, 1000)
        XCTAssertEqual(canonicalDescription(fromJSON), yamlDescription)
    }

    /// A hand-written JSON profile and its YAML twin load identically; JSON errors have places.
    func testSmallJSONProfile() throws {
        let json = """
            {
              "profile": "tiny",
              "characteristics": {
                "cp": { "service": "180D", "uuid": "2A37", "properties": ["write-without-response"] }
              },
              "commands": {
                "go": { "characteristic": "cp", "request": [ { "type": "u16be", "value": 513 } ] }
              },
              "procedure": [ { "send": "go" }, { "wait": "250ms" } ]
            }
            """
        let yaml = """
            profile: tiny
            characteristics:
              cp: { service: 180D, uuid: 2A37, properties: [write-without-response] }
            commands:
              go: { characteristic: cp, request: [ { type: u16be, value: 513 } ] }
            procedure: [ { send: go }, { wait: 250ms } ]
            """
        let fromJSON = try ProfileLoader.load(text: json, path: "tiny.json")
        let fromYAML = try ProfileLoader.load(text: yaml, path: "tiny.yaml")
        XCTAssertEqual(fromJSON.characteristics.first?.writeType, .withoutResponse)
        XCTAssertEqual(fromJSON.characteristics.first?.subscribe, false)
        XCTAssertEqual(fromJSON.commands["go"]?.request.fields.first?.type, .unsigned(width: 2, endianness: .big))
        XCTAssertNil(fromJSON.commands["go"]?.response)
        XCTAssertEqual(canonicalDescription(fromJSON), canonicalDescription(fromYAML))

        let broken = json.replacingOccurrences(of: "\"u16be\"", with: "\"u16x\"")
        let place = position(of: "\"u16x\"", in: broken)
        XCTAssertEqual(place.line, 7)
        let errors = loadErrors(broken, path: "tiny.json")
        XCTAssertEqual(errors.first?.hasPrefix("tiny.json:7:\(place.column): error: unknown field type 'u16x'"), true,
                       errors.joined(separator: "\n"))
    }
}
