import Foundation
import XCTest

/// Issue 13, item 4: what the command line can check without the device is checked before any
/// radio is touched, and said in the profile's terms. Most cases use `hci:tcp:127.0.0.1:9`,
/// where nothing listens: a command that tried to connect would end 69 (transport
/// unavailable), so a 64 proves the check came first.
final class InputCheckTests: XCTestCase {
    private let unreachable = "hci:tcp:127.0.0.1:9"
    private let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples").path
    private var nordicPackage: String { samples + "/nordic/app-signed.zip" }

    private func assertUsageError(_ arguments: [String], _ lines: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try DFUKitBinary.run(arguments)
        XCTAssertEqual(result.status, 64, "\(arguments): \(result.transcript)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        XCTAssertEqual(result.stderrLines, lines, "\(arguments)", file: file, line: line)
    }

    func testSetValuesAreCheckedAgainstTheParameterBeforeConnecting() throws {
        let flash = ["flash", "--profile", "nordic-secure-dfu", "--device", unreachable, nordicPackage]
        try assertUsageError(flash + ["--set", "prn=abc"], [
            "error: --set prn=abc: parameter 'prn' is an unsigned 16-bit integer (0 to 65535), not 'abc'",
            "See 'dfukit flash --help'.",
        ])
        try assertUsageError(flash + ["--set", "prn=70000"], [
            "error: --set prn=70000: parameter 'prn' is an unsigned 16-bit integer (0 to 65535), not '70000'",
            "See 'dfukit flash --help'.",
        ])
        try assertUsageError(flash + ["--set", "pnr=12"], [
            "error: --set pnr=12: profile 'nordic-secure-dfu' has no parameter 'pnr'; did you mean 'prn'?",
            "See 'dfukit flash --help'.",
        ])
        // --mode is --set mode=...: the profile says whether it has modes, and which.
        try assertUsageError(flash + ["--mode", "test-only"], [
            "error: --mode test-only: profile 'nordic-secure-dfu' has no parameter 'mode'; its parameters: prn",
            "See 'dfukit flash --help'.",
        ])
        // The legacy profile writes prn straight into a u16 field; profile trace checks the same.
        try assertUsageError(["profile", "trace", "nordic-legacy-dfu", samples + "/nordic/legacy-app.zip", "--set", "prn=-1"], [
            "error: --set prn=-1: parameter 'prn' is an unsigned 16-bit integer (0 to 65535), not '-1'",
            "See 'dfukit profile trace --help'.",
        ])
        // --json still prints one result, with the usage error.
        let json = try DFUKitBinary.run(flash + ["--set", "prn=abc", "--json"])
        XCTAssertEqual(json.status, 64, json.transcript)
        let error = try XCTUnwrap(try jsonObject(json.stdout)["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "usage")

        // A value that fits is used: the flash goes on and ends verified.
        let good = try DFUKitBinary.run(["flash", "--profile", "nordic-secure-dfu", "--device", "sim:nordic-secure-dfu",
                                         nordicPackage, "--set", "prn=0x0C", "--json"])
        XCTAssertEqual(good.status, 0, good.transcript)
        XCTAssertEqual(try jsonObject(good.stdout)["status"] as? String, "verified")
    }

    func testExecChecksTheCommandAndItsArgumentsBeforeConnecting() throws {
        let exec = ["exec", "--profile", "mcumgr-smp", "--device", unreachable]
        try assertUsageError(exec + ["image_lst"], [
            "error: profile 'mcumgr-smp' has no command 'image_lst'; did you mean 'image_list'?", "See 'dfukit exec --help'.",
        ])
        try assertUsageError(exec + ["image_list", "--set", "hash=00"], [
            "error: --set hash=00: command 'image_list' does not use parameter 'hash'; it uses none", "See 'dfukit exec --help'.",
        ])
        try assertUsageError(exec + ["image_test_hash", "--yes"], [
            "error: command 'image_test_hash' needs parameter 'hash' (bytes written in hex (an even number of digits 0-9, a-f))",
            "Give it with --set hash=VALUE.",
            "See 'dfukit exec --help'.",
        ])
        try assertUsageError(exec + ["image_test_hash", "--yes", "--set", "hash=zz"], [
            "error: --set hash=zz: parameter 'hash' is bytes written in hex (an even number of digits 0-9, a-f), not 'zz'",
            "See 'dfukit exec --help'.",
        ])
        try assertUsageError(["smp", "image", "test", "--device", unreachable, "abc"], [
            "error: HASH 'abc': parameter 'hash' is bytes written in hex (an even number of digits 0-9, a-f), not 'abc'",
            "See 'dfukit smp image test --help'.",
        ])
        // A text parameter keeps what was typed, digits included.
        let echo = try DFUKitBinary.run(["exec", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp", "echo",
                                         "--set", "text=42", "--json"])
        XCTAssertEqual(echo.status, 0, echo.transcript)
        let answer = try jsonObject(echo.stdout)["answer"] as? [String: Any]
        XCTAssertEqual((answer?["body"] as? [String: Any])?["r"] as? String, "42", echo.stdout)
    }

    /// `exec ... start` on the vendor device erases its slot: a command the profile marks
    /// `changes-device` is sent alone only with --yes; the others, and the smp shortcuts that
    /// name what they do, need none.
    func testCommandsThatChangeTheDeviceAskForYes() throws {
        for (profile, command) in [("vendor-ctrlpt", "start"), ("vendor-ctrlpt", "activate"), ("mcumgr-smp", "image_erase"),
                                   ("mcumgr-smp", "reset"), ("nordic-secure-dfu", "execute")] {
            try assertUsageError(["exec", "--profile", profile, "--device", unreachable, command], [
                "error: command '\(command)' of profile '\(profile)' changes the device (erases, writes, starts, activates "
                    + "or resets: the profile marks it changes-device); sent alone it can leave the device half updated.",
                "Add --yes to send it.",
                "See 'dfukit exec --help'.",
            ])
        }
        let erase = try DFUKitBinary.run(["exec", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp", "image_erase", "--yes",
                                          "--json"])
        XCTAssertEqual(erase.status, 0, erase.transcript)
        let status = try DFUKitBinary.run(["exec", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt", "status", "--json"])
        XCTAssertEqual(status.status, 0, status.transcript)
        let shortcut = try DFUKitBinary.run(["smp", "image", "erase", "--device", "sim:mcumgr-smp", "--json"])
        XCTAssertEqual(shortcut.status, 0, shortcut.transcript)
    }

    func testDeviceStringsTakePathsAndRefuseUnknownOptionsFirst() throws {
        // key=PATH with slashes: the simulated bootloader checks the init packet's signature with it.
        let key = samples + "/nordic/test-signing-key-THROWAWAY.pub.pem"
        let signed = try DFUKitBinary.run(["flash", "--profile", "nordic-secure-dfu", "--device", "sim:nordic-secure-dfu?key=\(key)",
                                           nordicPackage, "--json"])
        XCTAssertEqual(signed.status, 0, signed.transcript)
        XCTAssertEqual(try jsonObject(signed.stdout)["status"] as? String, "verified")
        // ... and with an address after it.
        let addressed = try DFUKitBinary.run(["flash", "--profile", "nordic-secure-dfu",
                                              "--device", "sim:nordic-secure-dfu?key=\(key)/C0:FF:EE:00:00:01", nordicPackage])
        XCTAssertEqual(addressed.status, 0, addressed.transcript)

        // A wrong option is refused while the arguments are read: before the (missing) package.
        let unknown = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt?mtu=247&bogus=1",
                                            "missing.zip"])
        XCTAssertEqual(unknown.status, 64, unknown.transcript)
        XCTAssertTrue(unknown.stderrLines.first?.hasPrefix("error: sim: unknown key 'bogus' (known: mtu, interval, ") ?? false,
                      unknown.transcript)
        let foreign = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt?buf-count=4",
                                            "missing.zip"])
        XCTAssertEqual(foreign.status, 64, foreign.transcript)
        XCTAssertEqual(foreign.stderrLines.first, "error: sim: buf-count applies to sim:mcumgr-smp only, not sim:vendor-ctrlpt")
        let missingKey = try DFUKitBinary.run(["flash", "--profile", "nordic-secure-dfu", "--device",
                                               "sim:nordic-secure-dfu?key=no/such/key.pem", "missing.zip"])
        XCTAssertEqual(missingKey.status, 64, missingKey.transcript)
        XCTAssertTrue(missingKey.stderr.contains("cannot read 'no/such/key.pem'"), missingKey.transcript)
        // A slash after a simulated device's name is still an address, and must be one.
        try assertUsageError(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt/zz", "x.zip"], [
            "error: 'zz' in device 'sim:vendor-ctrlpt/zz' is not a device address like C0:FF:EE:00:00:01",
            "See 'dfukit flash --help'.",
        ])
        // A socket path is a path.
        let socket = try DFUKitBinary.run(["scan", "--device", "hci:unix:/nonexistent/dir/hci.sock"])
        XCTAssertEqual(socket.status, 69, socket.transcript)
        XCTAssertTrue(socket.stderr.contains("/nonexistent/dir/hci.sock"), socket.transcript)
    }

    func testPackageCreateNeverWritesOverAnInput() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write("small.bin", bytes: firmwareBytes(count: 3000))
        let before = try ReferenceDigest.sha256(ofFile: input)
        try FileManager.default.linkItem(atPath: input, toPath: directory.file("hard-link.bin"))
        for output in ["small.bin", "./small.bin", input, "hard-link.bin"] {
            let result = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "1.0.0",
                                               "-o", output, "small.bin"], in: directory.path)
            XCTAssertEqual(result.status, 64, "\(output): \(result.transcript)")
            XCTAssertEqual(result.stderrLines.first, "error: --output '\(output)' is the input image 'small.bin': writing the "
                           + "package there would replace the firmware; choose another output path (nothing was written)")
            XCTAssertEqual(try ReferenceDigest.sha256(ofFile: input), before, "the input was changed")
        }
    }

    /// Issue 21: an empty image is never packaged (it could only end "verified" by the device
    /// showing nothing).
    func testPackageCreateRefusesAnEmptyImage() throws {
        let directory = try TemporaryDirectory()
        try directory.write("empty.bin", bytes: [])
        let result = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "1.0.0",
                                           "-o", "out.zip", "empty.bin"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.contains("image 'application' is empty"), result.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("out.zip")))
    }

    func testPackageCreateRefusesUnknownProfilesAndVersions() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.bin", bytes: firmwareBytes(count: 1000))
        func create(_ profile: String, _ version: String) throws -> ProcessResult {
            try DFUKitBinary.run(["package", "create", "--profile", profile, "--version", version, "-o", "out.zip", "app.bin"],
                                 in: directory.path)
        }
        let noProfile = try create("no-such-profile", "1.0.0")
        XCTAssertEqual(noProfile.status, 65, noProfile.transcript)
        XCTAssertTrue(noProfile.stderr.contains("no profile file or name 'no-such-profile'"), noProfile.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("out.zip")))

        let otherKind = try create("nordic-secure-dfu", "1.0.0")
        XCTAssertEqual(otherKind.status, 65, otherKind.transcript)
        XCTAssertEqual(otherKind.stderrLines, [
            "error: profile 'nordic-secure-dfu' takes nordic-secure packages, not DFUKit packages (dfukit-package); "
                + "profiles that do: vendor-ctrlpt",
            "nothing was written.",
        ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("out.zip")))

        for bad in ["banana", "1.2.3.4", "v1.0", "1..2", "1.0-", "1.0+b@d", ""] {
            let result = try create("vendor-ctrlpt", bad)
            XCTAssertEqual(result.status, 64, "\(bad): \(result.transcript)")
            XCTAssertEqual(result.stderrLines.first, "error: --version '\(bad)' is not a version: give MAJOR[.MINOR[.PATCH]], "
                           + "optionally with -PRERELEASE and +BUILD as in semver (e.g. 1.4.2, 2.0.0-rc.1)", bad)
        }
        for good in ["1", "1.4", "1.4.2", "2.0.0-rc.1", "1.0.0+42", "1.0.0-alpha.1+build.7"] {
            let result = try create("vendor-ctrlpt", good)
            XCTAssertEqual(result.status, 0, "\(good): \(result.transcript)")
        }
    }
}
