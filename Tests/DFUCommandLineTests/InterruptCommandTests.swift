import Foundation
import XCTest

/// Ctrl-C (SIGINT) and SIGTERM stop a command at any step, with the signal's exit status (130,
/// 143) and a last line saying what the device holds; never reported as a retry or a timeout.
/// The simulated devices run at wall-clock pace (`realtime=1`) so that each step lasts long
/// enough to be interrupted; the only time limit is a hang check (5 s after the signal).
final class InterruptCommandTests: XCTestCase {
    /// A link slow enough that a 20,000-byte upload takes tens of seconds: 20 bytes per 50 ms
    /// (the signal goes 2 s into the transfer phase, with data moving).
    private static let slowLink = "mtu=23&interval=50&packets-per-event=1&realtime=1"

    private func assertStoppedCleanly(_ outcome: SignalledProcess.Outcome, status: Int32 = 130,
                                      file: StaticString = #filePath, line: UInt = #line) {
        let result = outcome.result
        XCTAssertTrue(outcome.signalled, "the process ended before the signal:\n\(result.transcript)", file: file, line: line)
        XCTAssertEqual(result.status, status, result.transcript, file: file, line: line)
        XCTAssertFalse(result.stderrLines.contains { $0.hasPrefix("retry:") },
                       "a cancellation is not a retry:\n\(result.transcript)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains("no answer"), "a cancellation is not a timeout:\n\(result.transcript)",
                       file: file, line: line)
        XCTAssertFalse(result.stderr.contains("did not stop within a second"), result.transcript, file: file, line: line)
    }

    func testCtrlCWhileScanning() throws {
        let outcome = try SignalledProcess.run(["scan", "--device", "sim:vendor-ctrlpt?realtime=1", "--seconds", "30"],
                                               when: nil, markerTimeout: 1.5)
        assertStoppedCleanly(outcome)
        XCTAssertEqual(outcome.result.stdout, "", "an interrupted scan lists nothing")
        XCTAssertEqual(outcome.result.stderrLines.last,
                       "interrupted by Ctrl-C (SIGINT) while scanning; device holds: what it held before (nothing was sent)",
                       outcome.result.transcript)
    }

    func testCtrlCWhileFlashIsScanning() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 20_000)
        let outcome = try SignalledProcess.run(["flash", "-p", "vendor-ctrlpt", "-d", "sim:vendor-ctrlpt?realtime=1", package],
                                               when: "scanning sim:")
        assertStoppedCleanly(outcome)
        XCTAssertFalse(outcome.result.stderr.contains("connecting to"), outcome.result.transcript)
        XCTAssertEqual(outcome.result.stderrLines.last,
                       "interrupted by Ctrl-C (SIGINT); device holds: unchanged (it still runs its previous firmware)",
                       outcome.result.transcript)
    }

    /// Connecting to an address no device advertises at waits for the profile's reconnect
    /// timeout (10 s): Ctrl-C ends the wait.
    func testCtrlCWhileConnecting() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 20_000)
        let outcome = try SignalledProcess.run(["flash", "-p", "vendor-ctrlpt", "-d",
                                                "sim:vendor-ctrlpt?realtime=1/C0:FF:EE:00:00:09", package],
                                               when: "connecting to C0:FF:EE:00:00:09")
        assertStoppedCleanly(outcome)
        XCTAssertTrue(outcome.result.stderr.contains("cancelled while connecting"), outcome.result.transcript)
        XCTAssertEqual(outcome.result.stderrLines.last,
                       "interrupted by Ctrl-C (SIGINT); device holds: unchanged (it still runs its previous firmware)",
                       outcome.result.transcript)
    }

    func testCtrlCDuringTheTransfer() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 20_000)
        let outcome = try SignalledProcess.run(["flash", "-p", "vendor-ctrlpt", "-d",
                                                "sim:vendor-ctrlpt?\(Self.slowLink)/C0:FF:EE:00:00:01", package, "--json"],
                                               when: "phase 'transfer'", after: 2)
        assertStoppedCleanly(outcome)
        let result = outcome.result
        XCTAssertTrue(result.stderr.contains("cancelled before the update finished"), result.transcript)
        XCTAssertEqual(result.stderrLines.last,
                       "interrupted by Ctrl-C (SIGINT); device holds: unchanged (it still runs its previous firmware)",
                       result.transcript)
        OutputSchemaCheck.assertValid(result.stdout, against: "flash", label: "interrupted-transfer")
        let report = try jsonObject(result.stdout)
        XCTAssertEqual(report["status"] as? String, "failed")
        XCTAssertEqual(report["device_holds"] as? [String], ["unchanged"])
        XCTAssertEqual((report["error"] as? [String: Any])?["kind"] as? String, "cancelled")
        XCTAssertEqual(report["clock"] as? String, "wall", "realtime=1 runs on the wall clock")
    }

    func testSIGTERMDuringTheTransferExits143() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 20_000)
        let outcome = try SignalledProcess.run(["flash", "-p", "vendor-ctrlpt", "-d",
                                                "sim:vendor-ctrlpt?\(Self.slowLink)/C0:FF:EE:00:00:01", package],
                                               signal: SIGTERM, when: "phase 'transfer'", after: 2)
        assertStoppedCleanly(outcome, status: 143)
        XCTAssertEqual(outcome.result.stderrLines.last,
                       "interrupted by SIGTERM; device holds: unchanged (it still runs its previous firmware)",
                       outcome.result.transcript)
    }

    /// After `activate` the device reboots; the wait for it to advertise again (boot-ms=60000,
    /// longer than the profile's 10 s boot timeout) is interrupted.
    func testCtrlCWhileWaitingForTheReboot() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 2_000)
        let outcome = try SignalledProcess.run(["flash", "-p", "vendor-ctrlpt", "-d",
                                                "sim:vendor-ctrlpt?realtime=1&boot-ms=60000/C0:FF:EE:00:00:01", package],
                                               when: "to advertise again")
        assertStoppedCleanly(outcome)
        let last = try XCTUnwrap(outcome.result.stderrLines.last)
        XCTAssertTrue(last.hasPrefix("interrupted by Ctrl-C (SIGINT); device holds: "), outcome.result.transcript)
        XCTAssertFalse(last.contains("unchanged"), "the image was sent and activated:\n\(outcome.result.transcript)")
    }

    func testCtrlCWhileInspectConnects() throws {
        let outcome = try SignalledProcess.run(["inspect", "sim:vendor-ctrlpt?realtime=1/C0:FF:EE:00:00:09"], when: nil,
                                               markerTimeout: 1.5)
        assertStoppedCleanly(outcome)
        XCTAssertEqual(outcome.result.stderrLines.last,
                       "interrupted by Ctrl-C (SIGINT) while connecting and discovering; device holds: what it held "
                        + "before (nothing was sent)", outcome.result.transcript)
    }

    func testCtrlCWhileExecConnects() throws {
        let outcome = try SignalledProcess.run(["exec", "-p", "vendor-ctrlpt", "-d",
                                                "sim:vendor-ctrlpt?realtime=1/C0:FF:EE:00:00:09", "info"], when: nil,
                                               markerTimeout: 1.5)
        assertStoppedCleanly(outcome)
        let last = try XCTUnwrap(outcome.result.stderrLines.last)
        XCTAssertEqual(last, "interrupted by Ctrl-C (SIGINT); device holds: unchanged (it still runs its previous firmware)",
                       outcome.result.transcript)
    }

    func testRealtimeTakesASpeedFactor() throws {
        let result = try DFUKitBinary.run(["scan", "--device", "sim:vendor-ctrlpt?realtime=yes"])
        XCTAssertEqual(result.status, 64, result.transcript)
        XCTAssertTrue(result.stderr.contains("realtime must be a speed factor"), result.transcript)
    }
}
