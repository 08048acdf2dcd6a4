@testable import DFUEngine
import DFUProfile
import XCTest

/// Golden bytes for every write and notification of profiles/dialog-suota.yaml, from Dialog's SDK
/// 6 (`suotar_task.c` reads MEM_DEV and GPIO_MAP as u32 little-endian, PATCH_LEN as u16
/// little-endian; `suotar.h` status values) and the iOS SUOTA library (`SuotaManager.m`
/// `memoryDevice = memoryType << 24 | imageBank`, `spiGpioMap = miso << 24 | mosi << 16 | cs << 8 | sck`).
final class DialogSUOTAProfileMessageTests: XCTestCase {
    private func profile() throws -> Profile {
        try ProfileLoader.load(path: EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/dialog-suota.yaml").path)
    }

    private func scope(_ parameters: [String: UInt64] = [:]) throws -> Scope {
        var values = try profile().parameters.mapValues { value -> Value in
            if case let .integer(number) = value { return .integer(number) }
            return .integer(0)
        }
        for (name, number) in parameters { values[name] = .integer(number) }
        return Scope([
            "param": .record(values),
            "block": .record(["size": .integer(240)]),
            "piece": .record(["data": .bytes([0x70, 0x51, 0xAA, 0xFF])]),
        ])
    }

    private func request(_ command: String, _ scope: Scope) throws -> [UInt8] {
        try MessageEncoder.encode(XCTUnwrap(try profile().commands[command]).request, in: scope).bytes
    }

    func testTheDefaultsAreTheAndroidAppsSPIFlashSettings() throws {
        let parameters = try profile().parameters
        XCTAssertEqual(parameters["block_size"], .integer(240))
        XCTAssertEqual(parameters["memory_type"], .integer(0x13))
        XCTAssertEqual(parameters["image_bank"], .integer(0))
        XCTAssertEqual(parameters["gpio_map"], .integer(0x0506_0300))
    }

    func testRequests() throws {
        let defaults = try scope()
        XCTAssertEqual(try request("memory_device", defaults), [0x00, 0x00, 0x00, 0x13], "SPI flash, the older bank")
        XCTAssertEqual(try request("memory_device", try scope(["image_bank": 2, "memory_type": 0x12])), [0x02, 0x00, 0x00, 0x12])
        XCTAssertEqual(try request("gpio_map", defaults), [0x00, 0x03, 0x06, 0x05], "SCK P0_0, CS P0_3, MOSI P0_6, MISO P0_5")
        XCTAssertEqual(try request("patch_length", defaults), [0xF0, 0x00])
        XCTAssertEqual(try request("patch_data", defaults), [0x70, 0x51, 0xAA, 0xFF], "the bytes as they are")
        XCTAssertEqual(try request("end", defaults), [0x00, 0x00, 0x00, 0xFE])
        XCTAssertEqual(try request("reboot", defaults), [0x00, 0x00, 0x00, 0xFD])
    }

    func testStatusNotificationsAndTheirCodes() throws {
        let profile = try profile()
        let block = try XCTUnwrap(profile.notifications["block_status"])
        XCTAssertEqual(try MessageDecoder.decode([0x02], as: block, in: Scope()), .matched(["status": .integer(2)]))
        guard case let .matched(fields) = try MessageDecoder.decode([0x04], as: block, in: Scope()) else {
            return XCTFail("CRC_ERR must decode")
        }
        let status = try XCTUnwrap(DeviceStatus.failure(in: fields, spec: try XCTUnwrap(block.status), tables: profile.codeTables))
        XCTAssertTrue(status.description.hasPrefix("status 0x4 (crc-err): the XOR of the bytes the device received is not 0"),
                      status.description)
        for code in [0x01, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17] {
            XCTAssertNotNil(profile.codeTables["suota-status"]?.entries[UInt64(code)], "code 0x\(String(code, radix: 16))")
        }
    }

    /// MEM_DEV is answered IMG_STARTED, INVAL_IMG_BANK or INVAL_MEM_TYPE: a status left from an
    /// upload that starts over (a block's CMP_OK, PATCH_LEN_ERR) is not its answer.
    func testTheMemoryDeviceAnswerSkipsLeftoverStatuses() throws {
        let response = try XCTUnwrap(try profile().commands["memory_device"]?.response)
        for answer: UInt8 in [0x10, 0x11, 0x08] {
            guard case .matched = try ResponseMatcher.match([answer], response: response, scope: Scope()) else {
                return XCTFail("0x\(String(answer, radix: 16)) answers MEM_DEV")
            }
        }
        for leftover: UInt8 in [0x02, 0x05, 0x07, 0x06, 0x12] {
            guard case .mismatched = try ResponseMatcher.match([leftover], response: response, scope: Scope()) else {
                return XCTFail("0x\(String(leftover, radix: 16)) must not be taken for MEM_DEV's answer")
            }
        }
    }
}
