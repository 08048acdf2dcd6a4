import DFUProfile
import XCTest

/// Each broken profile must be reported at the exact `FILE:LINE:COL` of the mistake.
final class BrokenProfileTests: XCTestCase {
    /// A small valid profile; each case edits one piece of it.
    static let base = """
        profile: mini
        characteristics:
          control:
            service: D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F
            uuid: D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F
            properties: [write, notify]
            framing: frame
        framings:
          frame: { header-size: 2, length-width: 2 }
        codes:
          status-codes:
            0x00: ok
        notifications:
          receipt:
            characteristic: control
            fields:
              - { type: u8, value: 0x11 }
              - { name: offset, type: u32 }
        commands:
          ping:
            characteristic: control
            request:
              - { type: u8, value: 0x01 }
            response:
              fields:
                - { type: u8, value: 0x81 }
                - { name: status, type: u8 }
              status: { field: status, codes: status-codes }
        procedure:
          - send: ping
            expect: [ping.status == 0]
          - stream:
              data: image.data
              to: control
              receipts: { every: 10, notification: receipt, expect: [receipt.offset <= image.size] }

        """

    struct Case {
        var name: String
        var replace: String
        var with: String
        /// Text whose first occurrence in the edited profile is where the error must point.
        var at: String
        var occurrence = 1
        /// Added to the column of `at` (to point inside it).
        var columnOffset = 0
        var message: String
    }

    static let cases: [Case] = [
        Case(name: "unknown top-level key", replace: "profile: mini\n", with: "profile: mini\nversoin: 1\n",
             at: "versoin", message: "unknown key 'versoin' in the profile; did you mean 'version'?"),
        Case(name: "unknown nested key", replace: "    characteristic: control\n    request",
             with: "    charcteristic: control\n    request", at: "charcteristic",
             message: "unknown key 'charcteristic' in command 'ping'; did you mean 'characteristic'?"),
        Case(name: "unknown key without suggestion", replace: "properties: [write, notify]",
             with: "properties: [write, notify]\n    colour: blue", at: "colour",
             message: "unknown key 'colour' in characteristic 'control' (known keys: service, uuid,"),
        Case(name: "wrong type", replace: "properties: [write, notify]", with: "properties: write",
             at: "write", message: "'properties' must be a list, found 'write'"),
        Case(name: "wrong type of a section", replace: "codes:\n  status-codes:\n    0x00: ok",
             with: "codes: [status-codes]\nx-unused: 1", at: "[status-codes]",
             message: "'codes' must be a mapping (key: value), found a list"),
        Case(name: "missing required key", replace: "    uuid: D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F\n", with: "",
             at: "service: D0F1", message: "missing required key 'uuid' in characteristic 'control'"),
        Case(name: "missing profile name", replace: "profile: mini\n", with: "", at: "characteristics",
             message: "missing required key 'profile' in the profile"),
        Case(name: "misspelled required key", replace: "procedure:", with: "procedures:", at: "procedures",
             message: "unknown key 'procedures' in the profile; did you mean 'procedure'?"),
        Case(name: "dangling characteristic", replace: "    characteristic: control\n    request",
             with: "    characteristic: contrl\n    request", at: "contrl",
             message: "unknown characteristic 'contrl'; did you mean 'control'?"),
        Case(name: "dangling stream target", replace: "to: control", with: "to: packet", at: "packet",
             message: "unknown characteristic 'packet' (defined: control)"),
        Case(name: "dangling command", replace: "- send: ping", with: "- send: pong", at: "pong",
             message: "unknown command 'pong'; did you mean 'ping'?"),
        Case(name: "dangling framing", replace: "framing: frame", with: "framing: frames", at: "frames",
             message: "unknown framing 'frames'; did you mean 'frame'?"),
        Case(name: "dangling code table", replace: "codes: status-codes }", with: "codes: status-code }",
             at: "status-code }", message: "unknown code table 'status-code'; did you mean 'status-codes'?"),
        Case(name: "dangling notification", replace: "notification: receipt", with: "notification: receit",
             at: "receit", message: "unknown notification 'receit'; did you mean 'receipt'?"),
        Case(name: "status field not in the response", replace: "field: status,", with: "field: state,",
             at: "state,", message: "'state' is not a field of the response; did you mean 'status'?"),
        Case(name: "bad UUID", replace: "uuid: D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F", with: "uuid: D0F10001-XYZ",
             at: "D0F10001-XYZ", message: "'uuid' must be a Bluetooth UUID"),
        Case(name: "bad duration", replace: "    characteristic: control\n    request",
             with: "    characteristic: control\n    timeout: 5 sec\n    request", at: "5 sec",
             message: "'timeout' of command 'ping' must be a duration with a unit, such as 250ms, 5s or 2m, "
                 + "found '5 sec'"),
        Case(name: "u8 value out of range", replace: "value: 0x01", with: "value: 300", at: "300",
             message: "value 300 does not fit in a u8 field (0...255)"),
        Case(name: "u16be literal expression out of range", replace: "{ type: u8, value: 0x01 }",
             with: "{ type: u16be, value: '0x10000' }", at: "0x10000",
             message: "value 0x10000 does not fit in a u16 field (0...65535)"),
        Case(name: "unknown field type", replace: "{ name: status, type: u8 }",
             with: "{ name: status, type: u12 }", at: "u12", message: "unknown field type 'u12'"),
        Case(name: "bad expression syntax", replace: "[ping.status == 0]", with: "[ping.status == * 2]",
             at: "* 2", message: "in expression 'ping.status == * 2': expected a value, found '*'"),
        Case(name: "single equals", replace: "[ping.status == 0]", with: "[ping.status = 0]",
             at: "= 0", message: "'=' is not an operator; use '==' to compare"),
        Case(name: "unclosed parenthesis", replace: "[ping.status == 0]", with: "[(ping.status == 0]",
             at: "]", occurrence: 2, message: "expected ')' to close '(', found the end of the expression"),
        Case(name: "unknown function", replace: "[ping.status == 0]", with: "[crc33(ping.status) == 0]",
             at: "crc33", message: "unknown function 'crc33'; did you mean 'crc32'?"),
        Case(name: "wrong arity", replace: "[ping.status == 0]", with: "'slice(image.data, 1) == 0'",
             at: "slice", message: "'slice' takes 3 arguments, found 2"),
        Case(name: "unknown name in an expression", replace: "[ping.status == 0]", with: "[pnig.status == 0]",
             at: "pnig", message: "unknown name 'pnig' in expression; did you mean 'ping'?"),
        Case(name: "unknown response field", replace: "[ping.status == 0]", with: "[ping.statsu == 0]",
             at: "ping.statsu", message: "'ping' has no field 'statsu'; did you mean 'status'?"),
        Case(name: "unknown image member", replace: "data: image.data", with: "data: image.bytes",
             at: "image.bytes", message: "'image' has no field 'bytes'"),
        Case(name: "unknown step kind", replace: "- send: ping", with: "- sned: ping", at: "sned",
             message: "a step must have one of the keys send, if, set, chunks, stream, check, retry, reconnect, "
                 + "wait, fail, await, phase, serve, read, observe, found 'sned'; did you mean 'send'?"),
        Case(name: "YAML syntax error", replace: "properties: [write, notify]", with: "properties: [write, notify",
             at: "    framing", columnOffset: 11,
             message: "YAML syntax error: did not find expected ',' or ']'"),
        Case(name: "duplicate key", replace: "    framing: frame\n", with: "    framing: frame\n    uuid: 180D\n",
             at: "uuid", occurrence: 2, message: "duplicate key 'uuid' (first written at line 5, column 5)"),
        Case(name: "alias", replace: "service: D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F",
             with: "service: &svc D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F\n    x: *svc", at: "*svc",
             message: "YAML aliases ('*name') are not supported"),
        Case(name: "bytes literal", replace: "{ name: offset, type: u32 }",
             with: "{ name: offset, type: bytes, value: 5 }",
             at: "5 }", message: "'value' of field 2 of the fields of notification 'receipt' of a 'bytes' field"),
        Case(name: "two step kinds", replace: "  - send: ping\n", with: "  - send: ping\n    wait: 1s\n",
             at: "wait", message: "this one has both 'send' and 'wait'"),
        Case(name: "unsupported version", replace: "profile: mini\n", with: "profile: mini\nversion: 2\n",
             at: "2", message: "unsupported profile language version 2"),
    ]

    func testBaseProfileLoads() throws {
        let profile = try ProfileLoader.load(text: Self.base, path: "mini.yaml")
        XCTAssertEqual(profile.commands.count, 1)
        XCTAssertEqual(profile.notifications["receipt"]?.fields.count, 2)
        guard case .stream(let stream) = profile.procedure.last?.kind else { return XCTFail("no stream step") }
        XCTAssertEqual(stream.receipts?.alias, "receipt")
        XCTAssertEqual(stream.to, "control")
    }

    func testEachBrokenProfileIsReportedAtItsPlace() {
        assertEachReportedAtItsPlace(Self.cases, in: Self.base, path: "mini.yaml")
    }

    func testErrorRendering() {
        let error = ProfileError("bad thing", at: SourceLocation(file: "a.yaml", line: 3, column: 7))
        XCTAssertEqual(error.description, "a.yaml:3:7: error: bad thing")
        XCTAssertEqual(ProfileError("no such profile file", subject: "x.yaml").description,
                       "x.yaml: error: no such profile file")
        let diagnostics = ProfileDiagnostics([
            ProfileError("second", at: SourceLocation(file: "a.yaml", line: 9, column: 1)),
            ProfileError("first", at: SourceLocation(file: "a.yaml", line: 2, column: 4)),
        ])
        XCTAssertEqual(diagnostics.description, "a.yaml:2:4: error: first\na.yaml:9:1: error: second")
    }

    func testAllErrorsAreCollectedInFileOrder() {
        var text = Self.base.replacingOccurrences(of: "value: 0x01", with: "value: 256")
        text = text.replacingOccurrences(of: "- send: ping", with: "- send: pong")
        text = text.replacingOccurrences(of: "uuid: D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F", with: "uuid: nope")
        let errors = loadErrors(text)
        XCTAssertEqual(errors.count, 3, errors.joined(separator: "\n"))
        XCTAssertEqual(errors.map { $0.split(separator: ":")[1] }, ["5", "23", "30"])
        XCTAssertTrue(errors[0].contains("'uuid' must be a Bluetooth UUID"))
        XCTAssertTrue(errors[1].contains("value 256 does not fit in a u8 field"))
        XCTAssertTrue(errors[2].contains("unknown command 'pong'"))
    }

    /// A misspelt key is reported once, not again as a missing key; a failed definition does
    /// not cause errors at its uses.
    func testOneMistakeGivesOneError() {
        let misspelt = Self.base.replacingOccurrences(of: "    characteristic: control\n    request",
                                                      with: "    charcteristic: control\n    request")
        XCTAssertEqual(loadErrors(misspelt).count, 1, loadErrors(misspelt).joined(separator: "\n"))
        let badNotification = Self.base.replacingOccurrences(of: "notification: receipt", with: "notification: receit")
        XCTAssertEqual(loadErrors(badNotification).count, 1, loadErrors(badNotification).joined(separator: "\n"))
        let badField = Self.base.replacingOccurrences(of: "{ name: status, type: u8 }",
                                                      with: "{ name: status, type: u9 }")
        XCTAssertEqual(loadErrors(badField).count, 1, loadErrors(badField).joined(separator: "\n"))
    }

    func testEmptyAndNonMappingDocuments() {
        XCTAssertEqual(loadErrors(""), ["mini.yaml:1:1: error: the profile is empty"])
        let errors = loadErrors("- just\n- a list\n")
        XCTAssertEqual(errors.first?.hasPrefix("mini.yaml:1:1: error: a profile must be a mapping"), true,
                       errors.joined(separator: "\n"))
    }
}
