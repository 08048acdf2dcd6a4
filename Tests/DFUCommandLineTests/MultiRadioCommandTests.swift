@testable import DFUCommandLine
import DFUKit
import Foundation
import Synchronization
import XCTest

/// `dfukit batch run` on a station with several radios: `--device` repeated or listing adapters,
/// `device:` as a list in the line file, what the run prints of each radio, and the refusals.
final class MultiRadioCommandTests: XCTestCase {
    private func command(_ arguments: [String]) throws -> BatchRunCommand {
        try BatchRunCommand(ParsedArguments(arguments, options: BatchRunCommand.options, command: BatchRunCommand.name))
    }

    private let base = ["--profile", "vendor-ctrlpt", "--package", "app.zip"]

    func testDeviceTakesAListOfAdaptersAndRepeats() throws {
        XCTAssertEqual(try command(base + ["--device", "bluez:hci0,hci1"]).line.transports, ["bluez:hci0,hci1"])
        XCTAssertEqual(try command(base + ["--device", "hci:tcp:127.0.0.1:9001", "-d", "hci:tcp:127.0.0.1:9002"]).line.transports,
                       ["hci:tcp:127.0.0.1:9001", "hci:tcp:127.0.0.1:9002"])
        XCTAssertThrowsError(try command(base)) { error in
            XCTAssertTrue("\(error)".contains("missing the transport"), "\(error)")
        }
    }

    func testTheLineFileTakesOneDeviceStringOrAList() throws {
        let directory = try TemporaryDirectory()
        let list = try directory.write("list.yaml", text: "device:\n  - bluez:hci0\n  - hci:tcp:127.0.0.1:9002\n")
        XCTAssertEqual(try LineFileLoader.load(path: list).transports, ["bluez:hci0", "hci:tcp:127.0.0.1:9002"])
        let flow = try directory.write("flow.yaml", text: "device: [bluez:hci0, bluez:hci1]\n")
        XCTAssertEqual(try LineFileLoader.load(path: flow).transports, ["bluez:hci0", "bluez:hci1"])
        let text = try directory.write("text.yaml", text: "device: bluez:hci0,hci1\n")
        XCTAssertEqual(try LineFileLoader.load(path: text).transports, ["bluez:hci0,hci1"])
        XCTAssertEqual(try LineFileLoader.load(path: text).device, "bluez:hci0,hci1")
        // Flags replace the file's radios.
        XCTAssertEqual(try command([list] + base + ["--device", "bluez:hci2"]).line.transports, ["bluez:hci2"])
        XCTAssertEqual(try command([list] + base).line.transports, ["bluez:hci0", "hci:tcp:127.0.0.1:9002"])

        let bad = try directory.write("bad.yaml", text: "device:\n  - bluez:hci0\n  - {adapter: hci1}\n")
        XCTAssertThrowsError(try LineFileLoader.load(path: bad)) { error in
            XCTAssertTrue("\(error)".contains("bad.yaml:3:5: error: 'device' must be a device string such as bluez:hci0, "
                                              + "or a list of them (one per radio)"), "\(error)")
        }
        let empty = try directory.write("empty.yaml", text: "device: []\n")
        XCTAssertThrowsError(try LineFileLoader.load(path: empty)) { error in
            XCTAssertTrue("\(error)".contains("'device' must not be an empty list"), "\(error)")
        }
    }

    func testTwoSimulatedRadiosShowInTheProgressTheSummaryAndTheJSON() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 6_000)
        let ledger = directory.file("line.sqlite")
        let result = try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                           "--device", "sim:vendor-ctrlpt?fleet=6", "--device", "sim:vendor-ctrlpt?fleet=6",
                                           "-j", "2", "--ledger", "sqlite:\(ledger)", "--station", "st", "--json"],
                                          in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        let summary = try jsonObject(result.stdout)
        XCTAssertEqual(summary["succeeded"] as? Int, 6)
        let radios = try XCTUnwrap(summary["radios"] as? [[String: Any]])
        XCTAssertEqual(radios.map { $0["name"] as? String }, ["radio-1", "radio-2"])
        XCTAssertEqual(radios.map { $0["device"] as? String }, ["sim:vendor-ctrlpt?fleet=6", "sim:vendor-ctrlpt?fleet=6"])
        XCTAssertEqual(radios.map { $0["succeeded"] as? Int }, [3, 3])
        XCTAssertEqual(radios.map { $0["failure"] as? NSNull }, [NSNull(), NSNull()])
        // Each start names its radio (not a terminal: log lines), and the summary has a line per radio.
        let starts = result.stderrLines.filter { $0.contains(": attempt 1 started on radio-") }
        XCTAssertEqual(starts.count, 6, result.stderr)
        XCTAssertEqual(Set(starts.map { String($0.suffix(7)) }), ["radio-1", "radio-2"])
        XCTAssertTrue(result.stderrLines.contains("  radio-1: 3 device(s): 3 flashed, 0 failed, 0 skipped; 3 attempt(s)"),
                      result.stderr)
        // Each device once in the ledger.
        let rows = try Subprocess.tool("python3", ["-c", """
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute(
                "SELECT count(*), count(DISTINCT device) FROM dfukit_attempts WHERE result = 'succeeded'").fetchone())
            """, ledger])
        XCTAssertEqual(rows.trimmingCharacters(in: .whitespacesAndNewlines), "(6, 6)")
    }

    func testABadRadioIsRefusedBeforeTheLedgerOrAnyRadioIsOpened() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 1_000)
        for (device, expected) in [("bluez:hci0,hci0", "bluez:hci0 is given twice: one adapter is one radio"),
                                   ("bluez:hci0,,hci1", "an empty adapter name"),
                                   ("bluez:hci0,wlan0", "'wlan0' is not an adapter name like hci0")] {
            let ledger = directory.file("never.sqlite")
            let result = try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                               "--device", device, "--ledger", "sqlite:\(ledger)"], in: directory.path)
            XCTAssertEqual(result.status, 64, result.transcript)
            XCTAssertTrue(result.stderr.contains(expected), result.transcript)
            XCTAssertFalse(FileManager.default.fileExists(atPath: ledger), "\(device): the ledger was opened")
        }
        let mixed = try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                          "--device", "sim:vendor-ctrlpt?fleet=2", "--device", "hci:tcp:127.0.0.1:9",
                                          "--ledger", "sqlite:" + directory.file("never.sqlite")], in: directory.path)
        XCTAssertEqual(mixed.status, 64, mixed.transcript)
        XCTAssertTrue(mixed.stderr.contains("the radios mix simulated clocks"), mixed.transcript)
    }

    func testTheProgressViewNamesTheRadioOfEachSlot() {
        let console = CapturingConsole(interactive: false)
        let view = BatchProgressView(console: console, slots: 4, radios: 2)
        let address = DeviceAddress(string: "C0:FF:EE:00:00:03")!
        view.handle(.deviceStarted(address, attempt: 1, slot: 3, radio: "hci1"))
        view.handle(.radioFailed(radio: "hci1", reason: "bluez:hci1: connect: no adapter hci1 (ENODEV)", untried: [address]))
        XCTAssertEqual(console.errors, [
            "C0:FF:EE:00:00:03: attempt 1 started on hci1",
            "hci1: radio FAILED: bluez:hci1: connect: no adapter hci1 (ENODEV); it starts no more devices, the other radios "
                + "go on\n  1 device(s) waiting on it were not tried (not done: run the line again once the radio is back): "
                + "C0:FF:EE:00:00:03",
        ])
        let single = CapturingConsole(interactive: false)
        BatchProgressView(console: single, slots: 2).handle(.deviceStarted(address, attempt: 2, slot: 1, radio: "hci0"))
        XCTAssertEqual(single.errors, ["C0:FF:EE:00:00:03: attempt 2 started"], "one radio: not named")
    }
}

/// A console that keeps what was written.
final class CapturingConsole: Console, Sendable {
    private let written = Mutex<(out: [String], errors: [String])>(([], []))
    let isInteractive: Bool

    init(interactive: Bool) { isInteractive = interactive }

    func out(_ text: String) { written.withLock { $0.out.append(text) } }
    func error(_ text: String) { written.withLock { $0.errors.append(text) } }
    func errorInPlace(_ text: String) { written.withLock { $0.errors.append(text) } }

    var errors: [String] { written.withLock { $0.errors } }
}
