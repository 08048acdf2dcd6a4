import DFUBytes
import DFUEngine
import DFUProfile
import XCTest

/// `MessageEncoder` and `MessageDecoder` on the vendor profile's messages, with golden bytes.
final class MessageCodecTests: XCTestCase {
    private var profile: Profile!

    override func setUpWithError() throws {
        profile = try EngineTestSupport.vendorProfile()
    }

    private func request(_ command: String) throws -> MessageSpec {
        try XCTUnwrap(profile.commands[command]?.request, "no command \(command)")
    }

    private func response(_ command: String) throws -> MessageSpec {
        try XCTUnwrap(profile.commands[command]?.response?.message, "no response for \(command)")
    }

    // MARK: - Encoding

    func testStartCarriesSizeCRCAndSHAOfTheImage() throws {
        let (bytes, fields) = try MessageEncoder.encode(request("start"), in: InlineProfiles.helloScope)
        XCTAssertEqual(bytes, [0x01, 0x05, 0x00, 0x00, 0x00, 0x86, 0xA6, 0x10, 0x36] + InlineProfiles.helloSHA256)
        XCTAssertEqual(bytes.count, 41)
        XCTAssertEqual(fields, ["size": .integer(5), "crc32": .integer(0x3610_A686),
                                "sha256": .bytes(InlineProfiles.helloSHA256)], "anonymous constants are not fields")
    }

    func testOneByteCommands() throws {
        for (command, opcode) in [("status", 0x05), ("verify", 0x03), ("activate", 0x04)] as [(String, UInt8)] {
            let (bytes, fields) = try MessageEncoder.encode(request(command), in: Scope())
            XCTAssertEqual(bytes, [opcode], command)
            XCTAssertEqual(fields, [:], command)
        }
    }

    func testDataCarriesTheChunkOffsetLittleEndianThenItsBytes() throws {
        var scope = InlineProfiles.helloScope
        scope["chunk"] = .record(["offset": .integer(0x0102_0304), "data": .bytes([0xAA, 0xBB, 0xCC])])
        let (bytes, fields) = try MessageEncoder.encode(request("data"), in: scope)
        XCTAssertEqual(bytes, [0x02, 0x04, 0x03, 0x02, 0x01, 0xAA, 0xBB, 0xCC])
        XCTAssertEqual(fields["offset"], .integer(0x0102_0304))
        XCTAssertEqual(fields["bytes"], .bytes([0xAA, 0xBB, 0xCC]))
    }

    func testValueThatDoesNotFitItsFieldIsAnError() throws {
        var scope = Scope()
        scope["chunk"] = .record(["offset": .integer(0x1_0000_0000), "data": .bytes([1])])
        XCTAssertThrowsError(try MessageEncoder.encode(request("data"), in: scope)) { error in
            XCTAssertEqual((error as? EvaluationError)?.message, "4294967296 does not fit in 4 byte(s)")
            XCTAssertEqual((error as? EvaluationError)?.expression, "chunk.offset")
        }
    }

    func testWrongByteCountIsAnError() throws {
        var scope = InlineProfiles.helloScope
        scope["image"] = InlineProfiles.imageRecord(InlineProfiles.hello, crc32: 1, sha256: [UInt8](repeating: 0, count: 31))
        XCTAssertThrowsError(try MessageEncoder.encode(request("start"), in: scope)) { error in
            XCTAssertEqual((error as? EvaluationError)?.message, "the field holds 32 bytes but the value has 31")
        }
    }

    func testMissingVariableIsAnErrorNamingIt() throws {
        XCTAssertThrowsError(try MessageEncoder.encode(request("data"), in: Scope())) { error in
            let evaluation = error as? EvaluationError
            XCTAssertEqual(evaluation?.message, "'chunk.offset' is not defined at this point of the procedure")
            XCTAssertEqual(evaluation?.location.file, profile.path)
        }
    }

    func testFieldWidthsEndiannessBooleansAndStrings() throws {
        let profile = try InlineProfiles.load(InlineProfiles.header.replacingOccurrences(of: "commands:\n", with: """
        commands:
          mixed:
            characteristic: control
            request:
              - { type: u16be, value: 0x0102 }
              - { type: u24, value: 0x030405 }
              - { type: u24be, value: 0x030405 }
              - { type: u64, value: 0x0102030405060708 }
              - { name: flag, type: u8, value: "true" }
              - { name: text, type: bytes, value: "'OK'" }
              - { type: u8, value: 255 }

        """) + "procedure:\n  - send: mixed\n")
        let message = try XCTUnwrap(profile.commands["mixed"]?.request)
        let (bytes, fields) = try MessageEncoder.encode(message, in: Scope())
        XCTAssertEqual(bytes, [0x01, 0x02, 0x05, 0x04, 0x03, 0x03, 0x04, 0x05,
                               0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x01, 0x4F, 0x4B, 0xFF])
        XCTAssertEqual(fields, ["flag": .boolean(true), "text": .string("OK")])
    }

    // MARK: - Decoding

    func testStartResponseMatches() throws {
        let outcome = try MessageDecoder.decode([0x81, 0x00, 0x00, 0x10], as: response("start"), in: Scope())
        XCTAssertEqual(outcome, .matched(["status": .integer(0), "max_chunk": .integer(4096)]))
    }

    func testVerifyResponseMatches() throws {
        let bytes: [UInt8] = [0x83, 0x05, 0x86, 0xA6, 0x10, 0x36] + InlineProfiles.helloSHA256
        let outcome = try MessageDecoder.decode(bytes, as: response("verify"), in: Scope())
        XCTAssertEqual(outcome, .matched(["status": .integer(5), "crc32": .integer(0x3610_A686),
                                          "sha256": .bytes(InlineProfiles.helloSHA256)]))
    }

    func testOtherOpcodeIsAMismatch() throws {
        let outcome = try MessageDecoder.decode([0x82, 0x00, 0x00, 0x10], as: response("start"), in: Scope())
        XCTAssertEqual(outcome, .mismatched(reason: "field #1 at offset 0 is 130 (0x82), not 129 (0x81)"))
    }

    func testTooShortIsAMismatch() throws {
        let outcome = try MessageDecoder.decode([0x81, 0x00, 0x00], as: response("start"), in: Scope())
        XCTAssertEqual(outcome, .mismatched(reason: "3 bytes end before field 'max_chunk' at offset 2"))
        let empty = try MessageDecoder.decode([], as: response("start"), in: Scope())
        XCTAssertEqual(empty, .mismatched(reason: "0 bytes end before field #1 at offset 0"))
        let shortSHA = try MessageDecoder.decode([0x83, 0x00, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 31),
                                                 as: response("verify"), in: Scope())
        XCTAssertEqual(shortSHA, .mismatched(reason: "37 bytes end before field 'sha256' at offset 6"))
    }

    func testTrailingBytesAreAMismatch() throws {
        let outcome = try MessageDecoder.decode([0x81, 0x00, 0x00, 0x10, 0xFF, 0xFE], as: response("start"), in: Scope())
        XCTAssertEqual(outcome, .mismatched(reason: "2 unexpected bytes after the last field"))
    }

    func testRestOfMessageBytesFieldTakesEverythingLeft() throws {
        let profile = try InlineProfiles.load(InlineProfiles.header.replacingOccurrences(of: "commands:\n", with: """
        commands:
          read:
            characteristic: control
            request:
              - { type: u8, value: 0x07 }
            response:
              fields:
                - { type: u16be, value: 0x0807 }
                - { name: length, type: u16be }
                - { name: rest, type: bytes }

        """) + "procedure:\n  - send: read\n")
        let message = try XCTUnwrap(profile.commands["read"]?.response?.message)
        XCTAssertEqual(try MessageDecoder.decode([0x08, 0x07, 0x01, 0x02, 0xAA, 0xBB, 0xCC], as: message, in: Scope()),
                       .matched(["length": .integer(0x0102), "rest": .bytes([0xAA, 0xBB, 0xCC])]))
        XCTAssertEqual(try MessageDecoder.decode([0x08, 0x07, 0x00, 0x00], as: message, in: Scope()),
                       .matched(["length": .integer(0), "rest": .bytes([])]))
        XCTAssertEqual(try MessageDecoder.decode([0x07, 0x08, 0x00, 0x00], as: message, in: Scope()),
                       .mismatched(reason: "field #1 at offset 0 is 1800 (0x708), not 2055 (0x807)"))
    }
}

/// Error answers that stop after the status (Nordic's `60 06 0B 09` for a failed Select).
final class ShortFailureDecodingTests: XCTestCase {
    private func profile() throws -> Profile {
        try InlineProfiles.load("""
        profile: short
        characteristics:
          control:
            service: FE59
            uuid: 8EC90001-F315-4F60-9FB8-838830DAEA50
            properties: [write, notify]
        codes:
          result:
            0x01: success
            0x0B: extended-error
          extended:
            0x09: wrong-hash-type
        commands:
          select:
            characteristic: control
            request:
              - { type: u8, value: 0x06 }
            response:
              fields:
                - { type: u8, value: 0x60 }
                - { type: u8, value: 0x06 }
                - { name: result, type: u8 }
                - { name: max_size, type: u32 }
              status: { field: result, success: [0x01], codes: result, detail: { when: 0x0B, codes: extended } }
        procedure:
          - send: select
        """)
    }

    func testAFailureMayEndAfterTheStatusAndItsDetailByte() throws {
        let response = try XCTUnwrap(try profile().commands["select"]?.response)
        let outcome = try MessageDecoder.decode([0x60, 0x06, 0x0B, 0x09], as: response.message, in: Scope(),
                                                status: response.status)
        guard case let .matched(fields) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(fields["result"], .integer(0x0B))
        XCTAssertEqual(fields[MessageDecoder.positionalDetailKey], .integer(0x09))
    }

    func testASuccessMustCarryEveryField() throws {
        let response = try XCTUnwrap(try profile().commands["select"]?.response)
        let outcome = try MessageDecoder.decode([0x60, 0x06, 0x01], as: response.message, in: Scope(),
                                                status: response.status)
        guard case .mismatched = outcome else { return XCTFail("a short success must not match: \(outcome)") }
        let full = try MessageDecoder.decode([0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00], as: response.message,
                                             in: Scope(), status: response.status)
        XCTAssertEqual(full, .matched(["result": .integer(1), "max_size": .integer(4096)]))
    }
}
