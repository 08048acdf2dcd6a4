import DFUBytes
import DFUProfile
import XCTest

/// `profile check` refuses messages whose bytes a framing's length would overwrite, split or
/// shift, and bad framing keys, each at the `FILE:LINE:COL` of the mistake.
final class FramingCheckTests: XCTestCase {
    /// Issue 11's device on `control` (opcode, then the length inserted at byte 1), and an
    /// SMP-like overlay on `smp` (the message declares its 8-byte header).
    static let base = """
        profile: framed
        framings:
          f: { header-size: 3, length-offset: 1, length-width: 2 }
          smp: { header-size: 8, length-offset: 2, length-width: 2, endian: big, length-field: overlay }
        characteristics:
          control: { service: FEED, uuid: BEEF, properties: [write, notify], framing: f }
          smp: { service: FEED, uuid: BEF0, properties: [write-without-response, notify], framing: smp }
        notifications:
          progress:
            characteristic: control
            fields:
              - { type: u8, value: 0x90 }
              - { name: offset, type: u32 }
        commands:
          start:
            characteristic: control
            request:
              - { type: u8, value: 0x01 }
              - { name: size, type: u32, value: image.size }
            response:
              fields:
                - { type: u8, value: 0x81 }
                - { name: status, type: u8 }
          echo:
            characteristic: smp
            request:
              - { type: u8, value: 0x0a }
              - { type: u8, value: 0 }
              - { type: u16, value: 0 }
              - { type: u16, value: 1 }
              - { name: seq, type: u8, value: sequence }
              - { type: u8, value: 0 }
              - { type: cbor, map: { d: image.name } }
            response:
              fields:
                - { type: u8, value: 0x0b }
                - { type: u8 }
                - { name: length, type: u16be }
                - { type: u16, value: 1 }
                - { name: seq, type: u8 }
                - { type: u8, value: 0 }
                - { name: body, type: cbor }
        procedure:
          - send: start
          - send: echo

        """

    typealias Case = BrokenProfileTests.Case

    /// Errors an edit causes in all, when more than one: a framing edit reaches every message on it.
    static let errorCounts = [
        "insert: a response shorter than the header": 3, "insert: a notification shorter than the header": 3,
        "overlay: a header field without a fixed size": 2,
    ]

    static let cases: [Case] = [
        // Framing keys.
        Case(name: "unknown length-field", replace: "length-field: overlay", with: "length-field: over",
             at: "over }", message: "'length-field' must be one of insert, overlay, found 'over'"),
        Case(name: "unknown checksum", replace: "length-width: 2 }", with: "length-width: 2, checksum: crc17 }",
             at: "crc17", message: "unknown checksum 'crc17'; did you mean 'crc16'? (known: crc16, crc32,"),
        Case(name: "counted checksum without a checksum", replace: "length-width: 2 }",
             with: "length-width: 2, checksum-in-length: true }", at: "true }",
             message: "'checksum-in-length' needs a 'checksum' in framing 'f' (e.g. checksum: crc16)"),
        // insert
        Case(name: "insert: a header field without a fixed size",
             replace: "      - { type: u8, value: 0x01 }\n      - { name: size",
             with: "      - { name: code, type: bytes, value: image.data }\n      - { name: size", at: "{ name: code",
             message: "field 1 'code' of the request of command 'start' starts at byte 0 and has no fixed size, but "
                + "framing 'f' inserts its length after byte 0 of the message, so bytes 0..<1 of the message are "
                + "header: give it a 'count', or declare fixed-size fields for the header "
                + "before it"),
        Case(name: "insert: a field the length would split", replace: "{ type: u8, value: 0x01 }",
             with: "{ type: u16, value: 0x0001 }", at: "{ type: u16, value: 0x0001 }",
             message: "field 1 (bytes 0..<2) of the request of command 'start' would be split: framing 'f' inserts its "
                + "length after byte 0 of the message; make the fields before the "
                + "length end exactly at byte 1, or change 'length-offset'"),
        Case(name: "insert: a response shorter than the header",
             replace: "f: { header-size: 3,", with: "f: { header-size: 8,", at: "{ type: u8, value: 0x81 }",
             message: "the response of command 'start' declares 2 bytes, but framing 'f' inserts its length after byte 0 "
                + "of the message, so bytes 0..<6 of the message are header: declare fields for them"),
        Case(name: "insert: a notification shorter than the header",
             replace: "f: { header-size: 3,", with: "f: { header-size: 8,", at: "{ type: u8, value: 0x90 }",
             message: "notification 'progress' declares 5 bytes, but framing 'f' inserts its length after byte 0"),
        // overlay
        Case(name: "overlay: a header field without a fixed size", replace: "{ header-size: 8,",
             with: "{ header-size: 10,", at: "{ type: cbor",
             message: "field 7 of the request of command 'echo' starts at byte 8 and has no fixed size, but framing "
                + "'smp' (length-field: overlay) writes its length over bytes 2..<4 of the message's own 10-byte "
                + "header, so bytes 0..<10 of the message are header"),
        Case(name: "overlay: a message shorter than the header",
             replace: "        - { type: u8, value: 0 }\n        - { name: body, type: cbor }\n", with: "",
             at: "{ type: u8, value: 0x0b }",
             message: "the response of command 'echo' declares 7 bytes, but framing 'smp' (length-field: overlay) "
                + "writes its length over bytes 2..<4 of the message's own 8-byte header, so bytes 0..<8 of the "
                + "message are header: declare fields for them, with a u16be placeholder on bytes 2..<4"),
        Case(name: "overlay: a field across the length's bytes",
             replace: "      - { type: u8, value: 0 }\n      - { type: u16, value: 0 }\n",
             with: "      - { type: u16, value: 0 }\n      - { type: u8, value: 0 }\n", at: "{ type: u16, value: 0 }",
             message: "field 2 (bytes 1..<3) of the request of command 'echo' overlaps the length's bytes 2..<4: "
                + "declare one u16be field exactly on bytes 2..<4 (framing 'smp' replaces its value by the length)"),
        Case(name: "overlay: bytes on the length", replace: "{ type: u16, value: 0 }",
             with: "{ type: bytes, count: 2, value: unhex('0000') }", at: "{ type: bytes",
             message: "field 3 (bytes 2..<4) of the request of command 'echo' overlaps the length's bytes 2..<4: "
                + "declare one u16be field exactly on bytes 2..<4"),
        Case(name: "overlay: the length's field in the other byte order", replace: "{ name: length, type: u16be }",
             with: "{ name: length, type: u16le }", at: "{ name: length",
             message: "field 3 'length' (bytes 2..<4) of the response of command 'echo' holds framing 'smp''s "
                + "big-endian length: write its type as u16be"),
        Case(name: "overlay: a received length with a value", replace: "{ name: length, type: u16be }",
             with: "{ name: length, type: u16be, value: 9 }", at: "{ name: length",
             message: "field 3 'length' (bytes 2..<4) of the response of command 'echo' holds framing 'smp''s length: "
                + "a 'value' there matches only frames of that length; remove it (give the field a 'name' to read "
                + "the length)"),
    ]

    func testTheBaseProfileLoads() throws {
        let profile = try ProfileLoader.load(text: Self.base, path: "framed.yaml")
        XCTAssertEqual(profile.framings["f"]?.format.lengthField, .insert)
        XCTAssertEqual(profile.framings["smp"]?.format.lengthField, .overlay)
        XCTAssertNil(profile.framings["f"]?.format.trailer)
    }

    func testEachMisplacedLayoutIsReportedAtItsPlace() {
        assertEachReportedAtItsPlace(Self.cases, in: Self.base, path: "framed.yaml")
    }

    func testOneMistakeGivesOneErrorPerMessage() {
        for testCase in Self.cases {
            let text = Self.base.replacingOccurrences(of: testCase.replace, with: testCase.with)
            let errors = loadErrors(text, path: "framed.yaml")
            XCTAssertEqual(errors.count, Self.errorCounts[testCase.name] ?? 1, "\(testCase.name):\n" + errors.joined(separator: "\n"))
        }
    }

    func testTrailerKeysDecode() throws {
        let text = Self.base.replacingOccurrences(
            of: "length-width: 2 }", with: "length-width: 2, checksum: crc16, checksum-in-length: true }")
        let format = try XCTUnwrap(ProfileLoader.load(text: text, path: "framed.yaml").framings["f"]?.format)
        XCTAssertEqual(format.trailer, FrameTrailer(checksum: try XCTUnwrap(FrameChecksum.named("crc16")),
                                                    countedInLength: true))
        XCTAssertEqual(format.endianness, .little)
        let uncounted = Self.base.replacingOccurrences(of: "endian: big, length-field: overlay }",
                                                       with: "endian: big, length-field: overlay, checksum: crc32 }")
        let smp = try XCTUnwrap(ProfileLoader.load(text: uncounted, path: "framed.yaml").framings["smp"]?.format)
        XCTAssertEqual(smp.trailer?.checksum.width, 4)
        XCTAssertEqual(smp.trailer?.countedInLength, false)
    }

    /// Issue 11: a 3-byte header with the length at byte 1 and no placeholder in the message.
    /// As `insert` (the default) it frames right; as `overlay` it is refused, since the length
    /// would overwrite bytes 1..<3 of the u32.
    func testTheIssueExampleFramesRightByDefaultAndIsRefusedAsAnOverlay() throws {
        XCTAssertNoThrow(try ProfileLoader.load(text: Self.base, path: "framed.yaml"))
        let overlay = Self.base.replacingOccurrences(of: "length-width: 2 }", with: "length-width: 2, length-field: overlay }")
        let errors = loadErrors(overlay, path: "framed.yaml")
        let at = position(of: "{ name: size", in: overlay)
        XCTAssertTrue(errors.contains("framed.yaml:\(at.line):\(at.column): error: field 2 'size' (bytes 1..<5) of the "
                                      + "request of command 'start' overlaps the length's bytes 1..<3: declare one "
                                      + "u16le field exactly on bytes 1..<3 (framing 'f' replaces its value by the length)"),
                      errors.joined(separator: "\n"))
    }
}
