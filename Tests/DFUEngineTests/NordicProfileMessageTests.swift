@testable import DFUEngine
import DFUProfile
import XCTest

/// Golden bytes for every control-point command and response of the Nordic profiles, as
/// protocols.md section 2 and 3 give them.
final class NordicProfileMessageTests: XCTestCase {
    private func profile(_ name: String) throws -> Profile {
        try ProfileLoader.load(path: EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/\(name).yaml").path)
    }

    private func scope(initPacket: [UInt8] = [0xAA, 0xBB, 0xCC], prn: UInt64 = 12) -> Scope {
        Scope([
            "image": .record(["init_packet": .bytes(initPacket), "sd_size": .integer(0), "bl_size": .integer(0),
                              "app_size": .integer(0x1234)]),
            "param": .record(["prn": .integer(prn)]),
            "receipt_interval": .integer(prn),
            "object": .record(["size": .integer(4096)]),
        ])
    }

    private func request(_ profile: Profile, _ command: String, _ scope: Scope) throws -> [UInt8] {
        try MessageEncoder.encode(XCTUnwrap(profile.commands[command]).request, in: scope).bytes
    }

    func testSecureDFURequests() throws {
        let secure = try profile("nordic-secure-dfu")
        let scope = scope()
        XCTAssertEqual(try request(secure, "set_prn", scope), [0x02, 0x0C, 0x00])
        XCTAssertEqual(try request(secure, "select_command", scope), [0x06, 0x01])
        XCTAssertEqual(try request(secure, "select_data", scope), [0x06, 0x02])
        XCTAssertEqual(try request(secure, "create_command", scope), [0x01, 0x01, 0x03, 0x00, 0x00, 0x00])
        XCTAssertEqual(try request(secure, "create_data", scope), [0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(try request(secure, "checksum", scope), [0x03])
        XCTAssertEqual(try request(secure, "execute", scope), [0x04])
        XCTAssertEqual(try request(secure, "enter_bootloader", scope), [0x01])
    }

    func testSecureDFUResponsesAndPacketReceipt() throws {
        let secure = try profile("nordic-secure-dfu")
        let select = try XCTUnwrap(secure.commands["select_data"]?.response)
        // 60 06 01, max_size 4096, offset 0x2000, crc32 0xDEADBEEF
        let answer: [UInt8] = [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0xEF, 0xBE, 0xAD, 0xDE]
        XCTAssertEqual(try MessageDecoder.decode(answer, as: select.message, in: Scope(), status: select.status),
                       .matched(["result": .integer(1), "max_size": .integer(4096), "offset": .integer(0x2000),
                                 "crc32": .integer(0xDEAD_BEEF)]))
        // A Select answer to another opcode does not match.
        let other: [UInt8] = [0x60, 0x03, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00]
        guard case .mismatched = try MessageDecoder.decode(other, as: select.message, in: Scope(), status: select.status)
        else { return XCTFail("a checksum answer must not match select") }

        let receipt = try XCTUnwrap(secure.notifications["prn"])
        XCTAssertEqual(try MessageDecoder.decode([0x60, 0x03, 0x01, 0xF4, 0x00, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12],
                                                 as: receipt, in: Scope()),
                       .matched(["offset": .integer(244), "crc32": .integer(0x1234_5678)]))
    }

    func testSecureDFUExtendedErrorIsNamed() throws {
        let secure = try profile("nordic-secure-dfu")
        let execute = try XCTUnwrap(secure.commands["execute"]?.response)
        guard case let .matched(fields) = try MessageDecoder.decode([0x60, 0x04, 0x0B, 0x08], as: execute.message,
                                                                    in: Scope(), status: execute.status)
        else { return XCTFail("an extended error answer must match") }
        let status = try XCTUnwrap(DeviceStatus.failure(in: fields, spec: try XCTUnwrap(execute.status),
                                                        tables: secure.codeTables))
        XCTAssertEqual(status.description, "status 0xB (extended-error): see the extended error; detail 0x8 "
                       + "(signature-missing): the bootloader requires a signed init packet")
        // An unknown code is still printed, by number.
        guard case let .matched(unknown) = try MessageDecoder.decode([0x60, 0x04, 0x42], as: execute.message,
                                                                     in: Scope(), status: execute.status)
        else { return XCTFail("an unknown result must still match") }
        XCTAssertEqual(DeviceStatus.failure(in: unknown, spec: try XCTUnwrap(execute.status),
                                            tables: secure.codeTables)?.description, "status 0x42")
    }

    func testLegacyDFURequestsAndResponses() throws {
        let legacy = try profile("nordic-legacy-dfu")
        let scope = scope(prn: 10)
        XCTAssertEqual(try request(legacy, "start_dfu", scope), [0x01, 0x04])
        XCTAssertEqual(try request(legacy, "image_sizes", scope),
                       [0, 0, 0, 0, 0, 0, 0, 0, 0x34, 0x12, 0, 0])
        XCTAssertEqual(try request(legacy, "init_start", scope), [0x02, 0x00])
        XCTAssertEqual(try request(legacy, "init_complete", scope), [0x02, 0x01])
        XCTAssertEqual(try request(legacy, "set_prn", scope), [0x08, 0x0A, 0x00])
        XCTAssertEqual(try request(legacy, "receive_firmware", scope), [0x03])
        XCTAssertEqual(try request(legacy, "validate", scope), [0x04])
        XCTAssertEqual(try request(legacy, "activate", scope), [0x05])
        XCTAssertEqual(legacy.commands["image_sizes"]?.request.characteristic, "packet")
        XCTAssertEqual(legacy.commands["image_sizes"]?.response?.message.characteristic, "control")

        let receipt = try XCTUnwrap(legacy.notifications["receipt"])
        XCTAssertEqual(try MessageDecoder.decode([0x11, 0xC8, 0x00, 0x00, 0x00], as: receipt, in: Scope()),
                       .matched(["bytes": .integer(200)]))
        let validate = try XCTUnwrap(legacy.commands["validate"]?.response)
        guard case let .matched(fields) = try MessageDecoder.decode([0x10, 0x04, 0x05], as: validate.message,
                                                                    in: Scope(), status: validate.status)
        else { return XCTFail("a CRC error answer must match") }
        XCTAssertEqual(DeviceStatus.failure(in: fields, spec: try XCTUnwrap(validate.status), tables: legacy.codeTables)?.description,
                       "status 0x5 (crc-error): the received image's CRC16 does not match the init packet")
    }
}
