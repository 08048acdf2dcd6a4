import XCTest
import DFUBytes

/// Golden bytes from RFC 8949 appendix A and SMP bodies made by PyPI `smp` 4.2.0 (cbor2,
/// canonical key order).
final class CBORTests: XCTestCase {
    // MARK: RFC 8949 appendix A, encoded and decoded

    private let rfcExamples: [(CBORValue, String)] = [
        (.unsigned(0), "00"), (.unsigned(1), "01"), (.unsigned(10), "0a"), (.unsigned(23), "17"),
        (.unsigned(24), "1818"), (.unsigned(25), "1819"), (.unsigned(100), "1864"),
        (.unsigned(1000), "1903e8"), (.unsigned(1_000_000), "1a000f4240"),
        (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"),
        (.unsigned(18_446_744_073_709_551_615), "1bffffffffffffffff"),
        (.negative(18_446_744_073_709_551_615), "3bffffffffffffffff"),
        (.negative(0), "20"), (.negative(9), "29"), (.negative(99), "3863"), (.negative(999), "3903e7"),
        (.float(0.0), "f90000"), (.float(-0.0), "f98000"), (.float(1.0), "f93c00"),
        (.float(1.1), "fb3ff199999999999a"), (.float(1.5), "f93e00"), (.float(65504.0), "f97bff"),
        (.float(100000.0), "fa47c35000"), (.float(3.4028234663852886e+38), "fa7f7fffff"),
        (.float(1.0e+300), "fb7e37e43c8800759c"), (.float(5.960464477539063e-8), "f90001"),
        (.float(0.00006103515625), "f90400"), (.float(-4.0), "f9c400"),
        (.float(-4.1), "fbc010666666666666"), (.float(.infinity), "f97c00"),
        (.float(-.infinity), "f9fc00"),
        (.boolean(false), "f4"), (.boolean(true), "f5"), (.null, "f6"),
        (.bytes([]), "40"), (.bytes([1, 2, 3, 4]), "4401020304"),
        (.text(""), "60"), (.text("a"), "6161"), (.text("IETF"), "6449455446"),
        (.text("\"\\"), "62225c"), (.text("\u{00fc}"), "62c3bc"), (.text("\u{6c34}"), "63e6b0b4"),
        (.text("\u{10151}"), "64f0908591"),
        (.array([]), "80"), ([1, 2, 3], "83010203"), ([1, [2, 3], [4, 5]], "8301820203820405"),
        (.array((1...25).map { CBORValue(integer: $0) }),
         "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        (.map([]), "a0"), ([1: 2, 3: 4], "a201020304"), (["a": 1, "b": [2, 3]], "a26161016162820203"),
        (["a", ["b": "c"]], "826161a161626163"),
        (["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"], "a56161614161626142616361436164614461656145"),
    ]

    func testEncodesRFCExamples() {
        for (value, hex) in rfcExamples {
            XCTAssertEqual(CBOR.encode(value), hexBytes(hex), "encoding \(value)")
        }
    }

    func testDecodesRFCExamples() throws {
        for (value, hex) in rfcExamples {
            XCTAssertEqual(try CBOR.decode(hexBytes(hex)), value, "decoding \(hex)")
        }
    }

    func testNaNEncodesAsHalfAndDecodesFromEveryWidth() throws {
        XCTAssertEqual(CBOR.encode(.float(.nan)), hexBytes("f97e00"))
        for hex in ["f97e00", "fa7fc00000", "fb7ff8000000000000"] {
            guard case let .float(value) = try CBOR.decode(hexBytes(hex)) else { return XCTFail(hex) }
            XCTAssertTrue(value.isNaN, hex)
        }
        XCTAssertEqual(try CBOR.decode(hexBytes("fa7f800000")), .float(.infinity))
        XCTAssertEqual(try CBOR.decode(hexBytes("fbfff0000000000000")), .float(-.infinity))
    }

    func testHalfSubnormalsThatLibcborCannotEncodeGoOutAsSingles() throws {
        // 3 * 2^-24 is an exact half subnormal; libcbor's half encoder rounds it, so we use 4 bytes.
        let value = 3 * 5.960464477539063e-8
        let encoded = CBOR.encode(.float(value))
        XCTAssertEqual(encoded.first, 0xfa)
        XCTAssertEqual(try CBOR.decode(encoded), .float(value))
    }

    func testIntegerWidthBoundaries() {
        let cases: [(CBORValue, String)] = [
            (.unsigned(255), "18ff"), (.unsigned(256), "190100"), (.unsigned(65535), "19ffff"),
            (.unsigned(65536), "1a00010000"), (.unsigned(4_294_967_295), "1affffffff"),
            (.unsigned(4_294_967_296), "1b0000000100000000"),
            (.negative(23), "37"), (.negative(24), "3818"), (.negative(255), "38ff"), (.negative(256), "390100"),
            (.negative(65536), "3a00010000"), (.negative(4_294_967_296), "3b0000000100000000"),
        ]
        for (value, hex) in cases {
            XCTAssertEqual(CBOR.encode(value), hexBytes(hex), "encoding \(value)")
        }
    }

    func testLongByteStringRoundTrips() throws {
        let payload = pseudoRandomBytes(count: 70_000)
        let encoded = CBOR.encode(.bytes(payload))
        XCTAssertEqual(Array(encoded.prefix(5)), hexBytes("5a00011170"))
        XCTAssertEqual(encoded.count, 70_005)
        XCTAssertTrue(try CBOR.decode(encoded) == .bytes(payload), "70000-byte string did not round-trip")
    }

    // MARK: Indefinite lengths (RFC 8949 appendix A): accepted on decode

    func testDecodesIndefiniteLengthItems() throws {
        let cases: [(String, CBORValue)] = [
            ("5f42010243030405ff", .bytes([1, 2, 3, 4, 5])),
            ("7f657374726561646d696e67ff", "streaming"),
            ("9fff", []),
            ("9f018202039f0405ffff", [1, [2, 3], [4, 5]]),
            ("9f01820203820405ff", [1, [2, 3], [4, 5]]),
            ("83018202039f0405ff", [1, [2, 3], [4, 5]]),
            ("83019f0203ff820405", [1, [2, 3], [4, 5]]),
            ("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff",
             .array((1...25).map { CBORValue(integer: $0) })),
            ("bf61610161629f0203ffff", ["a": 1, "b": [2, 3]]),
            ("826161bf61626163ff", ["a", ["b": "c"]]),
            ("bf6346756ef563416d7421ff", ["Fun": true, "Amt": -2]),
            // A tinycbor-era MCUmgr response: {"rc": 0} as an indefinite-length map.
            ("bf627263 00 ff", ["rc": 0]),
        ]
        for (hex, value) in cases {
            XCTAssertEqual(try CBOR.decode(hexBytes(hex)), value, "decoding \(hex)")
        }
    }

    // MARK: Maps

    func testMapLookupIgnoresKeyOrder() throws {
        // The same SMP upload response, keys in Zephyr's order and in canonical order.
        let zephyrOrder = try CBOR.decode(hexBytes("a3 627263 00 636f6666 191000 656d61746368 f5"))
        let canonicalOrder = try CBOR.decode(hexBytes("a3 627263 00 636f6666 191000 656d61746368 f5".replacingOccurrences(of: " ", with: "")))
        let shuffled = try CBOR.decode(hexBytes("a3 656d61746368 f5 636f6666 191000 627263 00"))
        for value in [zephyrOrder, canonicalOrder, shuffled] {
            XCTAssertEqual(value["rc"], .unsigned(0))
            XCTAssertEqual(value["off"]?.integerValue, 4096)
            XCTAssertEqual(value["match"]?.booleanValue, true)
            XCTAssertNil(value["missing"])
        }
        XCTAssertNotEqual(zephyrOrder, shuffled, "== compares wire order")
        XCTAssertNil(CBORValue.array([])["rc"])
    }

    func testEncodingKeepsMapEntryOrder() {
        let value = CBORValue.textMap(["off": 0, "data": .bytes([0xaa]), "len": 4096])
        XCTAssertEqual(CBOR.encode(value), hexBytes("a3 636f6666 00 6464617461 41aa 636c656e 191000"))
    }

    func testNonTextKeysAreKept() throws {
        let value = try CBOR.decode(hexBytes("a2 01 02 4101 f5"))
        XCTAssertEqual(value.mapEntries, [CBORMapEntry(1, 2), CBORMapEntry(.bytes([1]), true)])
    }

    // MARK: SMP bodies made by PyPI `smp` 4.2.0

    func testDecodesSMPBodies() throws {
        // MCUMgrParametersReadResponse(buf_size=2475, buf_count=4)
        let parameters = try CBOR.decode(hexBytes("a2686275665f73697a651909ab696275665f636f756e7404"))
        XCTAssertEqual(parameters["buf_size"], .unsigned(2475))
        XCTAssertEqual(parameters["buf_count"], .unsigned(4))

        // ImageManagementErrorV2(err={group: 1, rc: 3})
        let errorV2 = try CBOR.decode(hexBytes("a163657272a2627263036567726f757001"))
        XCTAssertEqual(errorV2["err"]?["group"], .unsigned(1))
        XCTAssertEqual(errorV2["err"]?["rc"], .unsigned(3))
    }

    func testEncodesSMPUploadRequestBodyLikeSMP() throws {
        // ImageUploadWriteRequest(off=0, data=bytes(range(16)), image=0, len=4096,
        // sha=sha256(b"whole")): cbor2 canonical order len, off, sha, data, image.
        let sha = hexBytes("5d5766cf2d78701614200418ee1450690d9af12c84d52545e4802f001ad53099")
        let body = hexBytes("a5636c656e191000636f6666006373686158205d5766cf2d78701614200418ee1450690d9af12c84d52545e48"
            + "02f001ad53099646461746150000102030405060708090a0b0c0d0e0f65696d61676500")
        let value = CBORValue.textMap(["len": 4096, "off": 0, "sha": .bytes(sha),
                                       "data": .bytes(Array(0..<16)), "image": 0])
        XCTAssertEqual(CBOR.encode(value), body)
        XCTAssertEqual(try CBOR.decode(body), value)
        XCTAssertEqual(try CBOR.decode(body)["sha"]?.bytesValue, sha)
    }

    func testEncodesSMPImageStateBody() throws {
        // ImageStatesWriteRequest(hash=bytes(range(32)), confirm=False)
        let body = hexBytes("a264686173685820000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f67636f6e6669726df4")
        let value = CBORValue.textMap(["hash": .bytes(Array(0..<32)), "confirm": false])
        XCTAssertEqual(CBOR.encode(value), body)
        XCTAssertEqual(try CBOR.decode(body), value)
    }

    // MARK: Malformed input

    private func decodeError(_ hex: String, file: StaticString = #filePath, line: UInt = #line) -> CBORError? {
        expectError({ () throws(CBORError) in _ = try CBOR.decode(hexBytes(hex)) }, file: file, line: line)
    }

    func testEmptyInput() {
        XCTAssertEqual(decodeError(""), CBORError(.empty, offset: 0))
    }

    func testTruncatedInput() {
        XCTAssertEqual(decodeError("1903"), CBORError(.truncated, offset: 0))
        XCTAssertEqual(decodeError("63 6162"), CBORError(.truncated, offset: 0))
        XCTAssertEqual(decodeError("8301 02"), CBORError(.truncated, offset: 0))
        XCTAssertEqual(decodeError("a1 6161"), CBORError(.truncated, offset: 0))
        XCTAssertEqual(decodeError("82 01 a1 6161 1900"), CBORError(.truncated, offset: 5))
        XCTAssertEqual(decodeError("9f 01"), CBORError(.truncated, offset: 0))
        // Declared lengths far beyond the input are not allocated, just reported.
        XCTAssertEqual(decodeError("9bffffffffffffffff")?.reason, .truncated)
        XCTAssertEqual(decodeError("5bffffffffffffffff00")?.reason, .truncated)
        XCTAssertEqual(decodeError("bbffffffffffffffff01")?.reason, .truncated)
    }

    func testTrailingBytes() {
        XCTAssertEqual(decodeError("01 02"), CBORError(.trailingBytes(count: 1), offset: 1))
        XCTAssertEqual(decodeError("a0 000000"), CBORError(.trailingBytes(count: 3), offset: 1))
    }

    func testGarbage() {
        XCTAssertEqual(decodeError("1c"), CBORError(.malformed, offset: 0))
        XCTAssertEqual(decodeError("82 01 1f"), CBORError(.malformed, offset: 2))
        XCTAssertEqual(decodeError("ff"), CBORError(.unexpectedBreak, offset: 0))
        XCTAssertEqual(decodeError("82 01 ff"), CBORError(.unexpectedBreak, offset: 2))
        XCTAssertEqual(decodeError("bf 6161 ff"), CBORError(.unexpectedBreak, offset: 3))
        XCTAssertEqual(decodeError("62 c328"), CBORError(.invalidUTF8, offset: 0))
        XCTAssertEqual(decodeError("7f 61c3 6128 ff"), CBORError(.invalidUTF8, offset: 0))
        XCTAssertEqual(decodeError("5f 6161 ff"), CBORError(.invalidStringChunk, offset: 1))
        XCTAssertEqual(decodeError("5f 01 ff"), CBORError(.invalidStringChunk, offset: 1))
        XCTAssertEqual(decodeError("5f 80 ff"), CBORError(.invalidStringChunk, offset: 1))
        XCTAssertEqual(decodeError("c0 6161"), CBORError(.unsupportedTag(0), offset: 0))
        XCTAssertEqual(decodeError("81 d818 40"), CBORError(.unsupportedTag(24), offset: 1))
        XCTAssertEqual(decodeError("f7"), CBORError(.unsupportedUndefined, offset: 0))
        XCTAssertNotNil(decodeError("f0"))
        XCTAssertNotNil(decodeError("f8ff"))
    }

    func testNestingLimit() {
        let depth = CBOR.maximumNestingDepth
        let fine = [UInt8](repeating: 0x81, count: depth) + [0x00]
        XCTAssertNoThrow(try CBOR.decode(fine))
        let tooDeep = [UInt8](repeating: 0x81, count: depth + 1) + [0x00]
        XCTAssertEqual(expectError({ () throws(CBORError) in _ = try CBOR.decode(tooDeep) }),
                       CBORError(.nestingTooDeep(limit: depth), offset: depth))
    }

    func testErrorDescriptionsNameTheOffset() {
        XCTAssertEqual(CBORError(.trailingBytes(count: 2), offset: 7).description,
                       "CBOR: 2 byte(s) follow the item, from byte 7")
        XCTAssertEqual(CBORError(.malformed, offset: 3).description, "CBOR: malformed item at byte 3")
    }

    // MARK: Description and helpers

    func testDescriptionIsDiagnosticNotationAndShortensBytes() {
        let value: CBORValue = ["rc": 0, "n": -5, "ok": true, "x": .null, "h": .bytes([0, 0xab])]
        XCTAssertEqual(value.description, #"{"rc": 0, "n": -5, "ok": true, "x": null, "h": h'00ab'}"#)
        let long = CBORValue.bytes(Array(repeating: 0x11, count: 4096)).description
        XCTAssertEqual(long, "h'11111111111111111111111111111111…' (4096 bytes)")
        XCTAssertEqual(CBORValue.negative(.max).description, "-18446744073709551616")
    }

    func testIntegerHelpers() {
        XCTAssertEqual(CBORValue(integer: -1), .negative(0))
        XCTAssertEqual(CBORValue(integer: Int64.min), .negative(UInt64(Int64.max)))
        XCTAssertEqual(CBORValue(integer: UInt64.max), .unsigned(.max))
        XCTAssertEqual(CBORValue.negative(9).integerValue, -10)
        XCTAssertNil(CBORValue.unsigned(.max).integerValue)
        XCTAssertNil(CBORValue.text("1").integerValue)
    }
}
