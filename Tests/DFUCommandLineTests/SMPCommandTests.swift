import XCTest

/// `dfukit smp ...` against the simulated MCUmgr SMP server (its `image` and `os` groups as
/// Zephyr implements them), through the real binary.
final class SMPCommandTests: XCTestCase {
    private let device = ["--device", "sim:mcumgr-smp"]

    func testEchoSendsTheTextAndPrintsTheAnswer() throws {
        let result = try DFUKitBinary.run(["smp", "echo"] + device + ["hello world", "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let body = try XCTUnwrap(try jsonObject(result.stdout)["body"] as? [String: Any], result.stdout)
        XCTAssertEqual(body["r"] as? String, "hello world")
    }

    func testImageListShowsTheRunningImage() throws {
        let result = try DFUKitBinary.run(["smp", "image", "list"] + device + ["--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let body = try XCTUnwrap(try jsonObject(result.stdout)["body"] as? [String: Any], result.stdout)
        let images = try XCTUnwrap(body["images"] as? [[String: Any]], result.stdout)
        XCTAssertEqual(images.count, 1)
        XCTAssertEqual(images.first?["slot"] as? Int, 0)
        XCTAssertEqual(images.first?["active"] as? Bool, true)
        XCTAssertEqual(images.first?["confirmed"] as? Bool, true)
        XCTAssertEqual((images.first?["hash"] as? String)?.count, 64)
    }

    func testImageTestNamesTheImageGroupError() throws {
        let unknown = String(repeating: "ab", count: 32)
        let notFound = try DFUKitBinary.run(["smp", "image", "test"] + device + [unknown])
        XCTAssertEqual(notFound.status, 1, notFound.transcript)
        XCTAssertTrue(notFound.stderr.contains("status 0x8 (hash-not-found): no image has that hash"), notFound.stderr)
        XCTAssertFalse(notFound.stderr.contains("image 'image_test_hash'"), notFound.stderr)

        let short = try DFUKitBinary.run(["smp", "image", "test"] + device + ["0011"])
        XCTAssertEqual(short.status, 1, short.transcript)
        XCTAssertTrue(short.stderr.contains("status 0x18 (invalid-hash)"), short.stderr)

        // Not hex: said in the argument's terms before connecting, not as a profile error.
        let notHex = try DFUKitBinary.run(["smp", "image", "test"] + device + ["zz"])
        XCTAssertEqual(notHex.status, 64, notHex.transcript)
        XCTAssertEqual(notHex.stderrLines, ["error: HASH 'zz': parameter 'hash' is bytes written in hex (an even number of "
                                            + "digits 0-9, a-f), not 'zz'", "See 'dfukit smp image test --help'."])
    }

    func testWrongArgumentCountIsAUsageError() throws {
        let extra = try DFUKitBinary.run(["smp", "reset"] + device + ["now"])
        XCTAssertEqual(extra.status, 64, extra.transcript)
        XCTAssertTrue(extra.stderr.contains("takes no arguments"), extra.stderr)

        let missing = try DFUKitBinary.run(["smp", "image", "test"] + device)
        XCTAssertEqual(missing.status, 64, missing.transcript)
        XCTAssertTrue(missing.stderr.contains("takes 1 argument(s)"), missing.stderr)

        let noDevice = try DFUKitBinary.run(["smp", "echo", "hi"])
        XCTAssertEqual(noDevice.status, 64, noDevice.transcript)
    }
}
