import DFUBytes
import DFUProfile
import Foundation
import XCTest

/// The JSON Schema of `dfukit profile schema`: every shipped profile satisfies it, and broken
/// profiles fail it where an editor would underline them.
final class ProfileSchemaTests: XCTestCase {
    private let validator = JSONSchemaSubsetValidator(root: ProfileJSONSchema.generate())

    private static var shippedProfiles: [String] {
        let directory = ProfileLibrary.sourceTreeProfilesDirectory
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    private func failures(_ text: String, file: String = "test.yaml") throws -> [JSONSchemaSubsetValidator.Failure] {
        validator.validate(YAMLInstance.json(try ProfileDocument.parse(text: text, file: file)))
    }

    private func vendorProfile(replacing original: String, with replacement: String) throws -> String {
        let text = try String(contentsOfFile: ProfileLibrary.sourceTreeProfilesDirectory + "/vendor-ctrlpt.yaml",
                              encoding: .utf8)
        XCTAssertTrue(text.contains(original), "'\(original)' is not in vendor-ctrlpt.yaml")
        return text.replacingOccurrences(of: original, with: replacement)
    }

    func testTheSchemaIsDraft202012AndUsesOnlyCheckedKeywords() {
        let schema = ProfileJSONSchema.generate()
        guard case let .string(dialect)? = schema["$schema"] else { return XCTFail("no $schema") }
        XCTAssertEqual(dialect, "https://json-schema.org/draft/2020-12/schema")
        XCTAssertEqual(validator.unsupportedKeywords(), [])
    }

    func testEveryShippedProfileSatisfiesTheSchema() throws {
        let profiles = Self.shippedProfiles
        XCTAssertGreaterThanOrEqual(profiles.count, 4, "\(profiles)")
        for path in profiles {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertEqual(try failures(text, file: path).map(\.description), [], path)
        }
    }

    /// JSON spelling (quoted hex, `null`), and keys whose values take several forms.
    func testAProfileWrittenAsJSONSatisfiesTheSchema() throws {
        let text = """
            {"profile": "tiny", "characteristics": {"control": {"service": "180D", "uuid": "2A37",
             "properties": ["write", "notify"], "subscribe": "indications", "write-interval": "20ms"}},
             "codes": {"status": {"0x00": "ok", "0x01": {"name": "bad"}}},
             "commands": {"ping": {"characteristic": "control", "request": [{"type": "u8", "value": "0x01"}],
               "response": {"fields": [{"type": "u8", "value": 129}, {"name": "status", "type": "u8"}],
                            "status": {"field": "status", "codes": "status"}}}},
             "notifications": {"done": {"characteristic": "control", "fields": [{"type": "u8", "value": 2}]},
                               "failed": {"characteristic": "control", "fields": [{"type": "u8", "value": 3}]}},
             "procedure": [{"send": "ping", "timeout": "250ms"}, {"reconnect": null}, {"wait": "1s"},
                           {"read": "control", "as": "value", "expect": "len(value.value) > 0"},
                           {"await": ["done", "failed"], "timeout": "5s"}]}
            """
        XCTAssertNoThrow(try ProfileLoader.load(text: text, path: "tiny.json"), "the loader accepts it too")
        XCTAssertEqual(try failures(text, file: "tiny.json").map(\.description), [])
    }

    func testUnknownKeysMissingKeysAndBadChoicesFail() throws {
        let cases: [(original: String, replacement: String, path: String, message: String)] = [
            ("  retries: 1\n", "  retries: 1\n  bogus-key: 2\n", "/defaults/bogus-key", "unknown key 'bogus-key'"),
            ("    write: with-response\n", "    write: sometimes\n", "/characteristics/control/write",
             "\"sometimes\" is not one of"),
            ("    timeout: 10s          # the device erases", "    timeout: 10 s          # the device erases",
             "/commands/start/timeout", "does not match"),
            ("    uuid: D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F\n", "\n", "/characteristics/control",
             "missing required key 'uuid'"),
            ("        - { name: max_chunk, type: u16 }", "        - { name: max_chunk, type: u17 }",
             "/commands/start/response/fields/2/type", "\"u17\" is not one of"),
            ("    achieves: installed\n", "    achieves: flashed\n", "/procedure/3/achieves", "\"flashed\" is not one of"),
        ]
        for (original, replacement, path, message) in cases {
            let found = try failures(try vendorProfile(replacing: original, with: replacement))
            XCTAssertTrue(found.contains { $0.path == path && $0.description.contains(message) },
                          "\(replacement): expected a failure at \(path) (\(message)), got \(found.map(\.description))")
        }
    }

    func testAStepWithTwoKindsOrNoneFails() throws {
        let twoKinds = try failures(try vendorProfile(replacing: "      - reconnect: { address: same }\n",
                                                      with: "      - reconnect: { address: same }\n        wait: 1s\n"))
        XCTAssertFalse(twoKinds.isEmpty)
        let noKind = try failures(try vendorProfile(replacing: "      - reconnect: { address: same }\n",
                                                    with: "      - reconect: { address: same }\n"))
        XCTAssertFalse(noKind.isEmpty)
    }
}
