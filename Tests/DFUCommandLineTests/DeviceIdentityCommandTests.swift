import Foundation
import XCTest

/// How `dfukit` picks a device without an address: the strongest matching advertiser, filtered
/// by `--name` and `--min-rssi`, said on standard error; a profile without a `match:` rule is
/// refused by `flash` and `batch run`, and warned about by `profile check`.
final class DeviceIdentityCommandTests: XCTestCase {
    /// The shipped vendor profile without its `match:` rule.
    private func profileWithoutMatch(in directory: TemporaryDirectory) throws -> String {
        let text = try String(contentsOfFile: DFUKitBinary.shippedProfile, encoding: .utf8)
        let parts = text.components(separatedBy: "match:\n  name: \"DFU-*\"\n  services: [D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F]\n")
        XCTAssertEqual(parts.count, 2, "the shipped profile's match rule")
        try directory.write("anything.yaml", text: parts.joined())
        return "anything.yaml"
    }

    func testFlashPicksTheStrongestDeviceThatPassesTheFilters() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        // A fleet of three heard at -35, -42 and -49 dBm.
        let result = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt?fleet=3",
                                           "--min-rssi", "-45", "--name", "DFU-*", package], in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertTrue(result.stderrLines.contains(
            "picked C0:FF:EE:00:00:01 'DFU-SIM' at -35 dBm, the strongest of 2 matching devices; 1 more below -45 dBm"),
            result.transcript)
    }

    func testFiltersThatLeaveNoDeviceSayWhatWasHeard() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let named = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt?fleet=3",
                                          "--name", "Other-*", package], in: directory.path)
        XCTAssertEqual(named.status, 69, named.transcript)
        XCTAssertTrue(named.stderr.contains("no advertising device matches profile 'vendor-ctrlpt' and the filters "
                                            + "(3 more not named 'Other-*')"), named.transcript)
        let weak = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt?fleet=3",
                                         "--min-rssi", "-30", package], in: directory.path)
        XCTAssertEqual(weak.status, 69, weak.transcript)
        XCTAssertTrue(weak.stderr.contains("(3 more below -30 dBm)"), weak.transcript)
        XCTAssertTrue(weak.stderr.contains("C0:FF:EE:00:00:03 'DFU-SIM' at -49 dBm"), weak.transcript)
        let bad = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt",
                                        "--min-rssi", "loud", package], in: directory.path)
        XCTAssertEqual(bad.status, 64, bad.transcript)
    }

    func testTimeoutBoundsTheAttemptOnTheSimulatedClock() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 20_000)
        let result = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device",
                                           "sim:vendor-ctrlpt?fault=unresponsive-after:9000", "--timeout", "20s",
                                           "--json", package], in: directory.path)
        XCTAssertEqual(result.status, 1, result.transcript)
        let object = try jsonObject(result.stdout)
        XCTAssertEqual(object["status"] as? String, "failed")
        let seconds = try XCTUnwrap(object["seconds"] as? Double)
        XCTAssertGreaterThanOrEqual(seconds, 20)
        XCTAssertLessThanOrEqual(seconds, 51, "the bound, plus at most one ATT transaction timeout")
        XCTAssertTrue(result.stdout.contains("the attempt reached its time bound of 20 s"), result.transcript)
        let bad = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt",
                                        "--timeout", "soon", package], in: directory.path)
        XCTAssertEqual(bad.status, 64, bad.transcript)
    }

    func testAProfileWithoutAMatchRuleNeedsAnAddress() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let profile = try profileWithoutMatch(in: directory)

        let check = try DFUKitBinary.run(["profile", "check", profile], in: directory.path)
        XCTAssertEqual(check.status, 0, "a warning, not an error:\n\(check.transcript)")
        XCTAssertTrue(check.stderr.hasPrefix("anything.yaml: warning: profile 'vendor-ctrlpt' has no 'match' rule"),
                      check.transcript)
        let shipped = try DFUKitBinary.run(["profile", "check", DFUKitBinary.shippedProfile])
        XCTAssertFalse(shipped.stderr.contains("warning"), shipped.transcript)

        let scanned = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:vendor-ctrlpt", package],
                                           in: directory.path)
        XCTAssertEqual(scanned.status, 64, scanned.transcript)
        XCTAssertTrue(scanned.stderr.contains("has no match rule"), scanned.transcript)
        XCTAssertFalse(scanned.stderr.contains("connecting"), scanned.transcript)

        let addressed = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:vendor-ctrlpt/C0:FF:EE:00:00:01",
                                              package], in: directory.path)
        XCTAssertEqual(addressed.status, 0, addressed.transcript)

        let batch = try DFUKitBinary.run(["batch", "run", "--profile", profile, "--package", package,
                                          "--device", "sim:vendor-ctrlpt?fleet=3", "--ledger", "sqlite:line.sqlite",
                                          "--station", "line-1"], in: directory.path)
        // The same refusal and exit code as flash: the library's preflight makes it for both.
        XCTAssertEqual(batch.status, 64, batch.transcript)
        XCTAssertTrue(batch.stderr.contains("has no match rule"), batch.transcript)
    }

    /// Tracing against the generic device (the only device there) works for a profile being
    /// written, before it has a match rule.
    func testTraceOfAProfileWithoutAMatchRuleUsesTheGenericDevice() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let profile = try profileWithoutMatch(in: directory)
        let result = try DFUKitBinary.run(["profile", "trace", profile, package], in: directory.path)
        XCTAssertTrue(result.stdout.contains("connected to F0:DF:00:00:00:01"), result.transcript)
        XCTAssertTrue(result.stdout.contains("send 'data'"), "the procedure ran as far as with the rule:\n\(result.transcript)")
        XCTAssertFalse(result.transcript.contains("has no match rule"), result.transcript)
    }

    func testScanListsNoDeviceAsMatchingAProfileWithoutARule() throws {
        let directory = try TemporaryDirectory()
        let profile = try profileWithoutMatch(in: directory)
        let result = try DFUKitBinary.run(["scan", "--device", "sim:mcumgr-smp", "--profile", profile], in: directory.path)
        XCTAssertFalse(result.stdout.contains("vendor-ctrlpt"), result.transcript)
        let silabs = try DFUKitBinary.run(["scan", "--device", "sim:mcumgr-smp"], in: directory.path)
        XCTAssertFalse(silabs.stdout.contains("silabs-ota"), silabs.transcript)
    }
}
