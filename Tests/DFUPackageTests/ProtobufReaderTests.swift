import DFUBytes
import DFUPackage
import XCTest

/// The protobuf wire reader: golden bytes (the protobuf encoding guide's examples and nrfutil
/// output) and malformed input, which must end in a `ProtobufError` with the offset, never a trap.
final class ProtobufReaderTests: XCTestCase {
    private func fields(_ hex: String, file: StaticString = #filePath, line: UInt = #line) throws -> [ProtobufField] {
        var reader = ProtobufReader(try XCTUnwrap([UInt8](hex: hex), file: file, line: line))
        return try reader.readAllFields()
    }

    private func error(_ hex: String, file: StaticString = #filePath, line: UInt = #line) -> ProtobufError? {
        guard let bytes = [UInt8](hex: hex) else { XCTFail("bad hex \(hex)", file: file, line: line); return nil }
        var reader = ProtobufReader(bytes)
        do {
            _ = try reader.readAllFields()
            XCTFail("\(hex) decoded without error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testVarintFieldFromTheEncodingGuide() throws {
        // "08 96 01": field 1, varint 150.
        XCTAssertEqual(try fields("089601"), [ProtobufField(number: 1, value: .varint(150), offset: 0)])
    }

    func testEveryWireType() throws {
        // field 2 "testing"; field 3 fixed32 0x04030201; field 4 fixed64 1; field 5 varint 2^64-1.
        let decoded = try fields("120774657374696e67" + "1d01020304" + "210100000000000000" + "28ffffffffffffffffff01")
        XCTAssertEqual(decoded.map(\.number), [2, 3, 4, 5])
        XCTAssertEqual(decoded.map(\.offset), [0, 9, 14, 23])
        XCTAssertEqual(decoded[0].value, .lengthDelimited(ArraySlice(Array("testing".utf8))))
        XCTAssertEqual(decoded[1].value, .fixed32(0x0403_0201))
        XCTAssertEqual(decoded[2].value, .fixed64(1))
        XCTAssertEqual(decoded[3].value, .varint(UInt64.max))
        XCTAssertEqual(decoded.map(\.wireType), [.lengthDelimited, .fixed32, .fixed64, .varint])
    }

    func testGroupsAreSkippedWhole() throws {
        // field 5 group { field 1 varint 1, field 6 group { } }, then field 2 varint 7.
        let decoded = try fields("2b" + "0801" + "33" + "34" + "2c" + "1007")
        XCTAssertEqual(decoded.count, 2)
        XCTAssertEqual(decoded[0].value, .group(0..<6))
        XCTAssertEqual(decoded[1], ProtobufField(number: 2, value: .varint(7), offset: 6))
    }

    func testPackedVarints() throws {
        // sd_req [0xB7, 0xCB] packed, as nrfutil writes it.
        let decoded = try fields("1a04cb01b701")
        guard case let .lengthDelimited(payload) = decoded.first?.value else { return XCTFail("not length-delimited") }
        XCTAssertEqual(try ProtobufReader.packedVarints(payload), [0xCB, 0xB7])
        XCTAssertEqual(try ProtobufReader.packedVarints([][...]), [])
        XCTAssertThrowsError(try ProtobufReader.packedVarints([0xB7][...])) { error in
            XCTAssertEqual(error as? ProtobufError, .truncatedVarint(offset: 0))
        }
    }

    func testNestedReadersReportOffsetsInTheWholeInput() throws {
        // field 1 { field 1 varint 1, field 2 bytes of length 5 but only 1 left }.
        let bytes = try XCTUnwrap([UInt8](hex: "0a04" + "0801" + "1205"))
        var outer = ProtobufReader(bytes)
        guard case let .lengthDelimited(inner)? = try outer.nextField()?.value else { return XCTFail("no message") }
        var reader = ProtobufReader(inner)
        XCTAssertEqual(try reader.nextField(), ProtobufField(number: 1, value: .varint(1), offset: 2))
        XCTAssertThrowsError(try reader.nextField()) { error in
            XCTAssertEqual(error as? ProtobufError, .lengthPastEnd(offset: 6, length: 5, available: 0))
        }
    }

    func testMalformedInputIsATypedErrorWithTheOffset() {
        XCTAssertEqual(error("0896"), .truncatedVarint(offset: 1))
        XCTAssertEqual(error("80"), .truncatedVarint(offset: 0))
        XCTAssertEqual(error("120561"), .lengthPastEnd(offset: 2, length: 5, available: 1))
        XCTAssertEqual(error("12ffffffffffffffff7f"), .lengthPastEnd(offset: 10, length: UInt64(Int64.max), available: 0))
        XCTAssertEqual(error("08ffffffffffffffffff02"), .varintTooLong(offset: 1))
        XCTAssertEqual(error("08ffffffffffffffffffff01"), .varintTooLong(offset: 1))
        XCTAssertEqual(error("0e01"), .unknownWireType(6, offset: 0))
        XCTAssertEqual(error("0f"), .unknownWireType(7, offset: 0))
        XCTAssertEqual(error("0001"), .invalidFieldNumber(0, offset: 0))
        XCTAssertEqual(error("808080801000"), .invalidFieldNumber(0x1FFF_FFFF + 1, offset: 0))
        XCTAssertEqual(error("1d0102"), .truncatedFixed(offset: 1, needed: 4, available: 2))
        XCTAssertEqual(error("2101020304050607"), .truncatedFixed(offset: 1, needed: 8, available: 7))
        XCTAssertEqual(error("0c"), .unmatchedEndGroup(field: 1, offset: 0))
        XCTAssertEqual(error("0b0801"), .unterminatedGroup(field: 1, offset: 0))
        XCTAssertEqual(error("0b14"), .unmatchedEndGroup(field: 2, offset: 1))
        XCTAssertEqual(error(String(repeating: "0b", count: 70)), .nestingTooDeep(offset: 64))
        XCTAssertEqual(ProtobufError.lengthPastEnd(offset: 2, length: 5, available: 1).description,
                       "offset 2: length-delimited field of 5 bytes, but only 1 bytes are left")
    }

    /// Every prefix and every one-byte corruption of a real init packet decodes or throws a
    /// typed error; nothing traps.
    func testTruncatedAndCorruptedInitPacketsNeverTrap() throws {
        let packet = try NordicSamples.entry("app.dat", of: NordicSamples.signedApplication)
        var failures = 0
        for length in 0..<packet.count {
            do { _ = try NordicInitPacket(decoding: Array(packet.prefix(length))) } catch { failures += 1 }
        }
        XCTAssertGreaterThan(failures, packet.count / 2)
        for index in packet.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var corrupted = packet
                corrupted[index] ^= mask
                _ = try? NordicInitPacket(decoding: corrupted)
                _ = try? LegacyInitPacket(decoding: corrupted)
            }
        }
    }
}
