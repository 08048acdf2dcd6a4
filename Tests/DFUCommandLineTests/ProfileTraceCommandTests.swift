import Foundation
import XCTest

/// `dfukit profile trace`: every message both ways with its exact bytes, against the simulated
/// vendor device and against the generic device made from the profile.
final class ProfileTraceCommandTests: XCTestCase {
    private func trace(_ arguments: [String], size: Int = 5000) throws -> ProcessResult {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: size)
        return try DFUKitBinary.run(["profile", "trace", "vendor-ctrlpt", package] + arguments, in: directory.path)
    }

    /// The vendor protocol frames each command with a u16 LE length: `status` (opcode 05) is
    /// written as 01 00 05, and its answer (opcode 85, status, offset, crc32, sha256: 42 bytes)
    /// comes back behind 2a 00.
    func testTheVendorTraceOnTheSimulatorShowsTheExactBytesOfEachCommand() throws {
        let result = try trace(["--device", "sim:vendor-ctrlpt"])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stderr, "")
        let lines = result.stdoutLines
        XCTAssertTrue(lines.first?.hasPrefix("trace of profile 'vendor-ctrlpt' (") ?? false, result.stdout)
        XCTAssertEqual(lines.dropFirst().first, "device: sim:vendor-ctrlpt, simulated clock; image 'application' 5000 bytes")
        let info = try XCTUnwrap(lines.firstIndex { $0.hasSuffix(" s  -> control  write with response  01 00 06") }, result.stdout)
        XCTAssertEqual(lines[info + 1], "                => info request  06")
        let status = try XCTUnwrap(lines.firstIndex { $0.hasSuffix(" s  -> control  write with response  01 00 05") },
                                   result.stdout)
        XCTAssertGreaterThan(status, info, "info is asked first, then status")
        XCTAssertEqual(lines[status + 1], "                => status request  05")
        XCTAssertTrue(lines[status + 2].contains(" s  <- control  notification  2a 00 85 00 00 00 00 00 "), lines[status + 2])
        XCTAssertTrue(lines[status + 3].hasPrefix("                <= status response  85 00 "), lines[status + 3])
        XCTAssertTrue(lines[status + 3].hasSuffix("  status: ok"), lines[status + 3])
        XCTAssertTrue(lines[status + 4].hasPrefix("                   status=0 offset=0 crc32=0 sha256="), lines[status + 4])
        for fragment in ["-- phase 'transfer' entered", "=> start request", "size=5000 (0x1388)", "=> data request (",
                         "-- phase 'activate' completed", "the device dropped the link: "] {
            XCTAssertTrue(result.stdout.contains(fragment), "missing '\(fragment)':\n\(result.stdout)")
        }
        XCTAssertEqual(lines.last, "the procedure ran to its end: verified")
    }

    func testJSONLinesHaveOneObjectPerEvent() throws {
        let result = try trace(["--device", "sim:vendor-ctrlpt?mtu=23", "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let objects = try result.stdoutLines.map { try jsonObject($0) }
        XCTAssertEqual(objects.first?["event"] as? String, "trace")
        XCTAssertEqual(objects.first?["clock"] as? String, "simulated")
        XCTAssertEqual(objects.last?["event"] as? String, "end")
        XCTAssertEqual(objects.last?["status"] as? String, "verified")
        XCTAssertTrue(objects.contains { $0["event"] as? String == "connected" && $0["mtu"] as? Int == 23 })
        let value = try XCTUnwrap(objects.first { $0["event"] as? String == "value" && $0["hex"] as? String == "010005" })
        XCTAssertEqual(value["direction"] as? String, "write")
        XCTAssertEqual(value["characteristic"] as? String, "control")
        XCTAssertEqual(value["write"] as? String, "with-response")
        XCTAssertNotNil(value["time"] as? Double)
        let message = try XCTUnwrap(objects.first { $0["event"] as? String == "message" && $0["name"] as? String == "start" })
        XCTAssertEqual(message["kind"] as? String, "request")
        XCTAssertEqual((message["fields"] as? [String: Any])?["size"] as? Int, 5000)
        XCTAssertEqual(message["values"] as? Int, 3, "43 bytes in 20-byte writes at ATT_MTU 23")
        let answer = try XCTUnwrap(objects.first { $0["event"] as? String == "message" && $0["kind"] as? String == "response" })
        XCTAssertEqual(answer["status"] as? String, "ok")
    }

    /// Without --device: the generic device answers yes, so the trace goes as far as the first
    /// data chunk, whose answer cannot say where the device is; the output says so.
    func testTheGenericDeviceRunsUntilTheDeviceMustKnowSomething() throws {
        let result = try trace([])
        XCTAssertEqual(result.status, 1, result.transcript)
        let lines = result.stdoutLines
        XCTAssertEqual(lines.dropFirst().first,
                       "device: generic device of 'vendor-ctrlpt', virtual clock; image 'application' 5000 bytes")
        XCTAssertTrue(result.stdout.contains("-> control  write with response  01 00 05\n                => status request  05\n"),
                      result.stdout)
        XCTAssertTrue(result.stdout.contains("<= start response  81 00 00 10  status: ok\n"), result.stdout)
        let stop = try XCTUnwrap(lines.first { $0.hasPrefix("the procedure stopped: ") }, result.stdout)
        XCTAssertTrue(stop.contains("expected data.next_offset == chunk.end"), stop)
        XCTAssertTrue(stop.contains("vendor-ctrlpt.yaml:"), "the step's place in the profile: \(stop)")
        XCTAssertTrue(lines.last?.hasPrefix("note: the generic device answers what a successful answer holds") ?? false,
                      result.stdout)
    }

    func testAnswerRulesTakeTheGenericDeviceToTheEnd() throws {
        let result = try trace(["--mtu", "23", "--answer", "data.next_offset=request.offset + len(request.bytes)",
                                "--answer", "verify.crc32=start.crc32", "--answer", "verify.sha256=start.sha256",
                                "--answer", "info.sha256=start.sha256"])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertTrue(result.stdout.contains("connected to F0:DF:00:00:00:01, ATT_MTU 23\n"), result.stdout)
        XCTAssertEqual(result.stdoutLines.last, "the procedure ran to its end: verified")
    }

    func testCommandLinesThatCannotRun() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 100)
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            ([], 64, "error: name a profile and a package (0 arguments given)"),
            (["vendor-ctrlpt"], 64, "error: name a profile and a package (1 argument given)"),
            (["vendor-ctrlpt", package, "--mtu", "9"], 64, "error: --mtu is an ATT_MTU from 23 to 517, not '9'"),
            (["vendor-ctrlpt", package, "--mtu", "100", "--device", "hci:tcp:127.0.0.1:1"], 64,
             "error: --mtu applies to the generic device and sim: devices"),
            (["vendor-ctrlpt", package, "--answer", "data.next_offset=1", "--device", "sim:vendor-ctrlpt"], 64,
             "error: --answer applies to the generic device (without --device)"),
            (["vendor-ctrlpt", package, "--answer", "data.offset=1"], 64,
             "error: --answer: the response of 'data' has no field 'offset' (it has: status, next_offset)"),
            (["vendor-ctrlpt", package, "--answer", "data.next_offset=(("], 64, "error: --answer 'data.next_offset=(('"),
            (["no-such-profile", package], 65, "no-such-profile: error: no profile file or name 'no-such-profile'"),
            (["vendor-ctrlpt", directory.file("missing.zip")], 65, "error: "),
        ]
        for (arguments, status, message) in cases {
            let result = try DFUKitBinary.run(["profile", "trace"] + arguments, in: directory.path)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.transcript)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix(message), "\(arguments): \(result.transcript)")
        }
    }
}
