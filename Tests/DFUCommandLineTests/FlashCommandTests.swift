import Foundation
import XCTest

/// `dfukit flash` on the simulated vendor control-point device (virtual clock: each run takes
/// milliseconds of real time), and every way the command refuses to start.
final class FlashCommandTests: XCTestCase {
    private func flash(_ package: String, device: String, profile: String = "vendor-ctrlpt", json: Bool = true,
                       in directory: TemporaryDirectory) throws -> ProcessResult {
        try DFUKitBinary.run(["flash", "--profile", profile, "--device", device, package] + (json ? ["--json"] : []),
                             in: directory.path)
    }

    /// The one JSON line `--json` prints on standard output.
    private func report(_ result: ProcessResult, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        XCTAssertEqual(result.stdoutLines.count, 1, "--json prints one line:\n\(result.transcript)", file: file, line: line)
        return try jsonObject(result.stdout, file: file, line: line)
    }

    /// The keys every `--json` outcome has (null when the run cannot tell; `dfukit schema output
    /// flash`, checked in OutputSchemaTests).
    static let everyOutcomeKeys = ["status", "bytes", "bytes_already_on_device", "not_sent", "seconds", "bytes_per_second",
                                   "profile", "device", "address", "retries", "resumes", "clock", "device_holds",
                                   "phases_done", "evidence", "link", "transfer_seconds", "error"]

    private func assertEveryOutcomeKey(_ object: [String: Any], _ transcript: String, file: StaticString = #filePath,
                                       line: UInt = #line) {
        let missing = Self.everyOutcomeKeys.filter { object[$0] == nil }
        XCTAssertEqual(missing, [], "keys missing from the JSON object:\n\(transcript)", file: file, line: line)
    }

    func testFlashVerifiesAndReportsJSON() throws {
        let directory = try TemporaryDirectory()
        let size = 48 * 1024
        let package = try PackageCommandTests.makePackage(in: directory, size: size)

        let result = try flash(package, device: "sim:vendor-ctrlpt", in: directory)
        XCTAssertEqual(result.status, 0, result.transcript)
        let object = try report(result)
        XCTAssertEqual(object["status"] as? String, "verified")
        XCTAssertEqual(object["bytes"] as? Int, size)
        let seconds = try XCTUnwrap(object["seconds"] as? Double)
        let rate = try XCTUnwrap(object["bytes_per_second"] as? Double)
        XCTAssertGreaterThan(seconds, 0)
        XCTAssertEqual(rate, Double(size) / seconds, accuracy: rate * 0.001)
        XCTAssertEqual(object["profile"] as? String, "vendor-ctrlpt")
        XCTAssertEqual(object["device"] as? String, "sim:vendor-ctrlpt")
        XCTAssertEqual(object["address"] as? String, "C0:FF:EE:00:00:01")
        XCTAssertEqual(object["clock"] as? String, "simulated")
        XCTAssertEqual(object["resumes"] as? Int, 0)
        XCTAssertEqual(object["retries"] as? Int, 0)
        XCTAssertTrue(object["error"] is NSNull, result.transcript)
        assertEveryOutcomeKey(object, result.transcript)
        XCTAssertEqual(object["bytes_already_on_device"] as? Int, 0)
        XCTAssertTrue(object["not_sent"] is NSNull, result.transcript)
    }

    /// A device that already holds the package's image is sent nothing, and every output says
    /// so (it used to print "48.0 KiB sent" and `bytes: 49152`).
    func testADeviceThatAlreadyHoldsTheImageIsSentNothing() throws {
        let directory = try TemporaryDirectory()
        let size = 48 * 1024
        let package = try PackageCommandTests.makePackage(in: directory, size: size)
        let device = "sim:vendor-ctrlpt?state=\(directory.file("vendor.json"))"
        let first = try flash(package, device: device, in: directory)
        XCTAssertEqual(first.status, 0, first.transcript)
        XCTAssertEqual(try report(first)["bytes"] as? Int, size)

        let again = try flash(package, device: device, in: directory)
        XCTAssertEqual(again.status, 0, again.transcript)
        let object = try report(again)
        assertEveryOutcomeKey(object, again.transcript)
        XCTAssertEqual(object["bytes"] as? Int, 0)
        XCTAssertEqual(object["bytes_per_second"] as? Double, 0)
        XCTAssertEqual(object["bytes_already_on_device"] as? Int, size)
        XCTAssertTrue((object["not_sent"] as? String)?.contains("already held") ?? false, again.transcript)
        let summary = try XCTUnwrap(again.stderr.split(separator: "\n").last.map(String.init))
        XCTAssertTrue(summary.hasPrefix("0 bytes sent in ")
                      && summary.contains(": the device already held the image (48.0 KiB): "), again.transcript)
        XCTAssertFalse(summary.contains("kB/s"), "no rate for nothing sent: \(summary)")
    }

    /// The last line says the stage the device is left in, on success too: test-only leaves
    /// the image unconfirmed (it used to end at "verified").
    func testTheSummaryStatesTheStageTheDeviceHolds() throws {
        let directory = try TemporaryDirectory()
        let image = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot/app-ecdsa-p256.bin").path
        let result = try DFUKitBinary.run(["flash", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp",
                                           "--set", "mode=test-only", image, "--json"], in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        let object = try report(result)
        assertEveryOutcomeKey(object, result.transcript)
        let holds = try XCTUnwrap(object["device_holds"] as? [String], result.transcript)
        let summary = try XCTUnwrap(result.stderr.split(separator: "\n").last.map(String.init))
        XCTAssertTrue(summary.hasSuffix(": verified: the device holds \(holds.joined(separator: " or "))"), result.transcript)
        XCTAssertEqual(holds, ["unconfirmed"], result.transcript)
    }

    /// Without a terminal, progress is plain lines on standard error (no `\r` redraw), one per
    /// 10 %, with bytes, the transfer rate, elapsed time and ETA, marked simulated on `sim:`.
    func testPlainProgressGoesToStandardError() throws {
        let directory = try TemporaryDirectory()
        let size = 20_000
        let package = try PackageCommandTests.makePackage(in: directory, size: size)

        let result = try flash(package, device: "sim:vendor-ctrlpt", profile: DFUKitBinary.shippedProfile, json: false,
                               in: directory)
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stdout, "", "without --json the result goes to standard error")
        XCTAssertFalse(result.stderr.contains("\r"), result.transcript)
        let lines = result.stderrLines
        XCTAssertEqual(Array(lines.prefix(6)), [
            "scanning sim:vendor-ctrlpt for a device that matches the profile",
            "picked C0:FF:EE:00:00:01 'DFU-SIM' at -40 dBm, the only matching device",
            "connecting to C0:FF:EE:00:00:01",
            "connected to C0:FF:EE:00:00:01, ATT MTU 247",
            "link (modelled): 1M PHY, data length 251, MTU 247, interval 15 ms",
            "image 1/1 'application': \(size) bytes",
        ], result.transcript)
        let progress = lines.filter { $0.hasPrefix("progress 'application': ") }
        XCTAssertGreaterThanOrEqual(progress.count, 3, result.transcript)
        XCTAssertLessThanOrEqual(progress.count, 11, "one line per tenth at most:\n\(result.transcript)")
        let percents = progress.compactMap { Int($0.dropFirst("progress 'application': ".count).prefix { $0.isNumber }) }
        XCTAssertEqual(percents, percents.sorted(), result.transcript)
        XCTAssertEqual(Set(percents.map { $0 / 10 }).count, percents.count, "one line per tenth:\n\(result.transcript)")
        // Percent, bytes, the rate over the transfer, elapsed and ETA, on the simulated clock.
        let last = try XCTUnwrap(progress.last)
        XCTAssertTrue(last.hasPrefix("progress 'application': 100% 20,000/20,000 bytes, "), result.transcript)
        XCTAssertTrue(last.contains(" kB/s, elapsed 0:"), result.transcript)
        XCTAssertTrue(last.hasSuffix(", ETA 0:00 (simulated)"), result.transcript)
        XCTAssertTrue(lines.contains("image 'application' verified by the device"), result.transcript)
        let summary = try XCTUnwrap(lines.last)
        XCTAssertTrue(summary.hasPrefix("19.5 KiB sent in ") && summary.contains(" s (simulated), transfer ")
                      && summary.contains(" kB/s: verified"), result.transcript)
    }

    func testDisconnectIsResumed() throws {
        let directory = try TemporaryDirectory()
        let size = 60 * 1024
        let package = try PackageCommandTests.makePackage(in: directory, size: size)

        let result = try flash(package, device: "sim:vendor-ctrlpt?fault=disconnect-after:40000", in: directory)
        XCTAssertEqual(result.status, 0, result.transcript)
        let object = try report(result)
        XCTAssertEqual(object["status"] as? String, "verified")
        XCTAssertEqual(object["bytes"] as? Int, size)
        XCTAssertGreaterThanOrEqual(object["resumes"] as? Int ?? 0, 1, result.transcript)
        XCTAssertTrue(result.stderr.contains("send 'data': link lost: simulated fault: disconnect after 40000 bytes; reconnecting to resume (1/5)"),
                      result.transcript)
    }

    func testUnresponsiveDeviceFailsWithTheStepNamed() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 20_000)

        let result = try flash(package, device: "sim:vendor-ctrlpt?fault=unresponsive-after:5000",
                               profile: DFUKitBinary.shippedProfile, in: directory)
        XCTAssertEqual(result.status, 1, result.transcript)
        let object = try report(result)
        XCTAssertEqual(object["status"] as? String, "failed")
        let error = try XCTUnwrap(object["error"] as? [String: Any], result.transcript)
        XCTAssertEqual(error["kind"] as? String, "timeout")
        let message = try XCTUnwrap(error["message"] as? String)
        XCTAssertTrue(message.hasPrefix("send 'data': no answer"), message)
        let location = try XCTUnwrap(error["location"] as? String)
        // The location is the `send: data` step in the shipped profile.
        let profileLines = try String(contentsOfFile: DFUKitBinary.shippedProfile, encoding: .utf8).components(separatedBy: "\n")
        let stepLine = try XCTUnwrap(profileLines.firstIndex { $0.hasSuffix("- send: data") })
        let stepColumn = try XCTUnwrap(profileLines[stepLine].range(of: "send: data")).lowerBound.utf16Offset(in: profileLines[stepLine]) + 1
        XCTAssertEqual(location, "\(DFUKitBinary.shippedProfile):\(stepLine + 1):\(stepColumn)")
        XCTAssertTrue(result.stderr.contains("error: device C0:FF:EE:00:00:01, image 'application', offset 4096: send 'data': no answer"), result.transcript)
        XCTAssertFalse(result.stderr.contains(": verified"), result.transcript)
    }

    func testTamperedPackageIsRefusedBeforeAnythingIsSent() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 20_000)
        try ZipSurgery.flipFirstByte(of: "application.bin", in: package, to: directory.file("tampered.zip"))

        let result = try flash("tampered.zip", device: "sim:vendor-ctrlpt", in: directory)
        XCTAssertEqual(result.status, 65, result.transcript)
        try assertFailedReport(result, kind: "package")
        XCTAssertTrue(result.stderr.hasPrefix("error: tampered.zip, image 'application': does not match manifest.json: sha256 mismatch"),
                      result.transcript)
        XCTAssertTrue(result.stderr.hasSuffix("\nnothing was sent to the device.\n"), result.transcript)
        XCTAssertFalse(result.stderr.contains("connecting"), result.transcript)
    }

    func testMissingPackageAndMissingProfileAreDataErrors() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4096)

        let noPackage = try flash("missing.zip", device: "sim:vendor-ctrlpt", in: directory)
        XCTAssertEqual(noPackage.status, 65, noPackage.transcript)
        XCTAssertTrue(noPackage.stderr.hasPrefix("error: missing.zip: cannot open package"), noPackage.transcript)
        XCTAssertTrue(noPackage.stderr.hasSuffix("\nnothing was sent to the device.\n"), noPackage.transcript)

        let noProfile = try flash(package, device: "sim:vendor-ctrlpt", profile: "missing-profile.yaml", in: directory)
        XCTAssertEqual(noProfile.status, 65, noProfile.transcript)
        try assertFailedReport(noProfile, kind: "profile")
        XCTAssertTrue(noProfile.stderr.hasPrefix("missing-profile.yaml: error: no such profile file"),
                      noProfile.transcript)
    }

    func testBrokenProfileFileIsADataError() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4096)
        try directory.write("broken.yaml", text: "profile: broken\nbogus: 1\n")

        let result = try flash(package, device: "sim:vendor-ctrlpt", profile: "broken.yaml", in: directory)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.hasPrefix("broken.yaml:"), result.transcript)
        XCTAssertTrue(result.stderr.contains(": error: "), result.transcript)
    }

    /// Issue 21: a world paced faster than the wall clock (`realtime=20`) reports simulated
    /// seconds, and says so; only `realtime=1` is wall time.
    func testAFasterThanRealTimeWorldSaysItsSecondsAreSimulated() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000)
        for (speed, clock) in [("20", "simulated"), ("1", "wall")] {
            let result = try flash(package, device: "sim:vendor-ctrlpt?realtime=\(speed)", in: directory)
            XCTAssertEqual(result.status, 0, result.transcript)
            XCTAssertEqual(try jsonObject(result.stdout)["clock"] as? String, clock, "realtime=\(speed)")
            XCTAssertEqual(result.stderr.contains("(simulated)"), clock == "simulated", result.transcript)
        }
    }

    func testBadDeviceSpecifiersAreUsageErrors() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4096)
        let cases: [(device: String, message: String)] = [
            // One parser for every door: the library's DeviceLocator and its scheme's check.
            ("nope", "error: device 'nope' must start with a transport scheme such as sim:, hci: or bluez:"),
            ("usb:1", "error: no transport 'usb:'; registered: bluez:, hci:, serial:, sim:, udp:"),
            ("sim:", "error: device 'sim:' names no sim: target"),
            ("sim:vendor-ctrlpt/zz", "error: 'zz' in device 'sim:vendor-ctrlpt/zz' is not a device address like C0:FF:EE:00:00:01"),
            ("sim:vendor-ctrlpt?mtu=9", "error: sim: mtu must be an integer in 23...517, not '9'"),
            ("sim:vendor-ctrlpt?journal=/proc/no-such/dir",
             "error: sim: journal: cannot create the directory '/proc/no-such/dir' (errno 2)"),
            ("sim:vendor-ctrlpt?realtime=0", "error: sim: realtime must be a speed factor between 0.01 and 1000 "
                + "(1: real time, 10: ten times faster), not '0'"),
            ("sim:vendor-ctrlpt?fault=bogus:1", "error: sim: unknown fault 'bogus' (known: disconnect-after, "
                + "drop-notification, corrupt-notification, duplicate-notification, reorder-notification, busy, "
                + "unresponsive-after, reboot-after, drop-write, corrupt-write, disconnect-on, disconnect-after-command)"),
            ("sim:unknown-device", "error: sim: no simulated device 'unknown-device' (known: vendor-ctrlpt, nordic-secure-dfu, "
                + "nordic-legacy-dfu, mcumgr-smp, dialog-suota, silabs-ota, ti-oad, telink-ota)"),
        ]
        for (device, message) in cases {
            let result = try flash(package, device: device, json: false, in: directory)
            XCTAssertEqual(result.status, 64, "\(device): \(result.transcript)")
            XCTAssertEqual(result.stdout, "", device)
            XCTAssertEqual(result.stderrLines, [message, "See 'dfukit flash --help'."], "\(device): \(result.transcript)")
        }
    }

    func testUnreachableOrMissingTransportsAreUnavailable() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4096)
        // Nothing listens on port 9: the HCI host cannot reach a controller.
        let hci = try flash(package, device: "hci:tcp:127.0.0.1:9", in: directory)
        XCTAssertEqual(hci.status, 69, hci.transcript)
        try assertFailedReport(hci, kind: "transport")
        XCTAssertTrue(hci.stderr.contains("error: transport unavailable: hci:tcp:127.0.0.1:9: cannot connect: Connection refused"),
                      hci.transcript)
        // This machine's kernel has no Bluetooth sockets.
        let user = try flash(package, device: "hci:user:0", in: directory)
        XCTAssertEqual(user.status, 69, user.transcript)
        XCTAssertTrue(user.stderr.contains("EAFNOSUPPORT"), user.transcript)
        let bluez = try flash(package, device: "bluez:hci0", in: directory)
        XCTAssertEqual(bluez.status, 69, bluez.transcript)
        try assertFailedReport(bluez, kind: "transport")
        XCTAssertTrue(bluez.stderr.contains("error: transport unavailable: bluez:hci0: socket: this kernel has no Bluetooth support "
                                            + "(no AF_BLUETOOTH)"), bluez.transcript)
        XCTAssertTrue(bluez.stderr.hasSuffix("(EAFNOSUPPORT)\n"), bluez.transcript)

        // An authenticated link is more than DFUKit's own host can pair for: said before connecting.
        let profile = try String(contentsOfFile: DFUKitBinary.repositoryRoot.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path,
                                 encoding: .utf8).replacingOccurrences(of: "\nversion: 1\n", with: "\nversion: 1\nsecurity: high\n")
        try directory.write("vendor-high.yaml", text: profile)
        let high = try flash(package, device: "hci:tcp:127.0.0.1:9", profile: "vendor-high.yaml", in: directory)
        XCTAssertEqual(high.status, 69, high.transcript)
        XCTAssertTrue(high.stderr.contains("error: the profile asks for security high (an authenticated link); DFUKit's own "
                                           + "HCI host pairs with Just Works only (security medium): use bluez: for this device"),
                      high.transcript)
    }

    /// No simulated device has this address: the connection fails (a transport error, 69),
    /// and the error names the address.
    func testAbsentAddressIsATransportError() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4096)

        let result = try flash(package, device: "sim:vendor-ctrlpt/11:22:33:44:55:66", in: directory)
        XCTAssertEqual(result.status, 69, result.transcript)
        let object = try report(result)
        XCTAssertEqual(object["status"] as? String, "failed")
        XCTAssertEqual(object["address"] as? String, "11:22:33:44:55:66")
        XCTAssertEqual(object["bytes"] as? Int, 0)
        assertEveryOutcomeKey(object, result.transcript)
        let error = try XCTUnwrap(object["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "transport")
        XCTAssertTrue((error["message"] as? String)?.contains("no simulated device advertises at this address") ?? false, "\(error)")
        XCTAssertTrue(result.stderr.contains("error: device 11:22:33:44:55:66: connecting failed"), result.transcript)
    }

    /// With `address=` the simulated device moves; naming that address finds it.
    func testAddressOfAMovedSimulatedDevice() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4096)

        let result = try flash(package, device: "sim:vendor-ctrlpt?address=11:22:33:44:55:66/11:22:33:44:55:66", in: directory)
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(try report(result)["address"] as? String, "11:22:33:44:55:66")
    }

    /// With --json, a failure before any byte is sent still prints one object saying so.
    private func assertFailedReport(_ result: ProcessResult, kind: String, file: StaticString = #filePath,
                                    line: UInt = #line) throws {
        let object = try report(result)
        XCTAssertEqual(object["status"] as? String, "failed", file: file, line: line)
        XCTAssertEqual(object["bytes"] as? Int, 0, file: file, line: line)
        assertEveryOutcomeKey(object, result.transcript, file: file, line: line)
        XCTAssertEqual((object["error"] as? [String: Any])?["kind"] as? String, kind, result.transcript, file: file, line: line)
    }
}
