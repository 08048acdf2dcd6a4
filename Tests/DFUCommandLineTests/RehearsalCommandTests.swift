import Foundation
import XCTest

/// `sim:NAME?state=FILE` (a simulated device's memory kept between dfukit invocations), `scan`
/// of a simulated fleet and `smp image list`'s table, through the real binary.
final class RehearsalCommandTests: XCTestCase {
    private let image = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot/app-ecdsa-p256.bin").path

    /// The slots `smp image list --json` reports, by slot number.
    private func slots(_ device: String, file: StaticString = #filePath, line: UInt = #line) throws -> [Int: [String: Any]] {
        let result = try DFUKitBinary.run(["smp", "image", "list", "--device", device, "--json"])
        XCTAssertEqual(result.status, 0, result.transcript, file: file, line: line)
        let body = try XCTUnwrap(try jsonObject(result.stdout)["body"] as? [String: Any], result.stdout, file: file, line: line)
        let images = try XCTUnwrap(body["images"] as? [[String: Any]], result.stdout, file: file, line: line)
        return Dictionary(uniqueKeysWithValues: images.map { (($0["slot"] as? Int) ?? -1, $0) })
    }

    func testUploadTestResetConfirmRehearsedAsSeparateCommands() throws {
        let directory = try TemporaryDirectory()
        let device = "sim:mcumgr-smp?state=\(directory.file("smp.json"))"

        let factory = try slots(device)
        XCTAssertEqual(Array(factory.keys), [0])
        let factoryHash = try XCTUnwrap(factory[0]?["hash"] as? String)

        let upload = try DFUKitBinary.run(["flash", "--profile", "mcumgr-smp", "--device", device,
                                           "--set", "mode=upload-only", image])
        XCTAssertEqual(upload.status, 0, upload.transcript)
        let uploaded = try slots(device)
        XCTAssertEqual(uploaded.keys.sorted(), [0, 1], "slot 1 holds the upload in the next command")
        let newHash = try XCTUnwrap(uploaded[1]?["hash"] as? String)
        XCTAssertNotEqual(newHash, factoryHash)
        XCTAssertEqual(uploaded[1]?["pending"] as? Bool, false)
        let saved = try jsonObject(String(contentsOfFile: directory.file("smp.json"), encoding: .utf8))
        XCTAssertEqual(saved["format"] as? String, "dfukit-simulator-state")
        XCTAssertEqual(saved["version"] as? Int, 1)
        XCTAssertEqual(saved["device"] as? String, "mcumgr-smp")

        let test = try DFUKitBinary.run(["smp", "image", "test", "--device", device, newHash])
        XCTAssertEqual(test.status, 0, test.transcript)
        XCTAssertEqual(try slots(device)[1]?["pending"] as? Bool, true)

        let reset = try DFUKitBinary.run(["exec", "--profile", "mcumgr-smp", "--device", device, "reset", "--yes"])
        XCTAssertEqual(reset.status, 0, reset.transcript)
        let trial = try slots(device)
        XCTAssertEqual(trial[0]?["hash"] as? String, newHash, "the reset swapped the tested image in")
        XCTAssertEqual(trial[0]?["confirmed"] as? Bool, false, "it runs unconfirmed")
        XCTAssertEqual(trial[1]?["hash"] as? String, factoryHash)

        let confirm = try DFUKitBinary.run(["smp", "image", "confirm", "--device", device])
        XCTAssertEqual(confirm.status, 0, confirm.transcript)
        XCTAssertEqual(try slots(device)[0]?["confirmed"] as? Bool, true)

        let secondReset = try DFUKitBinary.run(["smp", "reset", "--device", device])
        XCTAssertEqual(secondReset.status, 0, secondReset.transcript)
        let kept = try slots(device)
        XCTAssertEqual(kept[0]?["hash"] as? String, newHash, "a confirmed image is kept across a reset")
        XCTAssertEqual(kept[0]?["confirmed"] as? Bool, true)
    }

    func testAnUploadStoppedByOneCommandIsKeptForTheNext() throws {
        let directory = try TemporaryDirectory()
        let state = directory.file("smp.json")
        let stopped = try DFUKitBinary.run(["flash", "--profile", "mcumgr-smp",
                                            "--device", "sim:mcumgr-smp?state=\(state)&fault=unresponsive-after:20000",
                                            "--set", "mode=upload-only", image])
        XCTAssertNotEqual(stopped.status, 0, stopped.transcript)
        let saved = try jsonObject(String(contentsOfFile: state, encoding: .utf8))
        let upload = try XCTUnwrap((saved["memory"] as? [String: Any])?["upload"] as? [String: Any], "\(saved)")
        let received = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(upload["received"] as? String)))
        let whole = try Data(contentsOf: URL(fileURLWithPath: image))
        XCTAssertGreaterThan(received.count, 0)
        XCTAssertLessThan(received.count, whole.count)
        XCTAssertEqual(received, whole.prefix(received.count), "the device holds the start of the image")
        XCTAssertEqual(upload["size"] as? Int, whole.count)

        let resumed = try DFUKitBinary.run(["flash", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp?state=\(state)",
                                            "--set", "mode=upload-only", image])
        XCTAssertEqual(resumed.status, 0, resumed.transcript)
        XCTAssertEqual(try slots("sim:mcumgr-smp?state=\(state)").keys.sorted(), [0, 1])
        // The second command says it resumed and counts only what it sent itself.
        let sentThisRun = (whole.count - received.count).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        let total = whole.count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        XCTAssertTrue(resumed.stderr.contains("resumed at "), resumed.transcript)
        XCTAssertTrue(resumed.stderr.contains("sent \(sentThisRun) of \(total) bytes this run"),
                      "expected 'sent \(sentThisRun) of \(total) bytes this run'\n\(resumed.transcript)")
    }

    func testWithoutStateTheDeviceForgets() throws {
        let upload = try DFUKitBinary.run(["flash", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp",
                                           "--set", "mode=upload-only", image])
        XCTAssertEqual(upload.status, 0, upload.transcript)
        XCTAssertEqual(Array(try slots("sim:mcumgr-smp").keys), [0])
    }

    func testAnUnconfirmedImageRevertsAtTheNextResetOfALaterCommand() throws {
        let directory = try TemporaryDirectory()
        let device = "sim:mcumgr-smp?state=\(directory.file("smp.json"))"
        let factoryHash = try XCTUnwrap(try slots(device)[0]?["hash"] as? String)
        let flash = try DFUKitBinary.run(["flash", "--profile", "mcumgr-smp", "--device", device,
                                          "--set", "mode=test-only", image])
        XCTAssertEqual(flash.status, 0, flash.transcript)
        XCTAssertNotEqual(try slots(device)[0]?["hash"] as? String, factoryHash, "test-only reset into the new image")
        let reset = try DFUKitBinary.run(["smp", "reset", "--device", device])
        XCTAssertEqual(reset.status, 0, reset.transcript)
        XCTAssertEqual(try slots(device)[0]?["hash"] as? String, factoryHash, "MCUboot reverted the unconfirmed image")
    }

    func testVendorDeviceKeepsTheImageItRuns() throws {
        let directory = try TemporaryDirectory()
        let package = directory.file("app.zip")
        let create = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "1.0.0",
                                           "--output", package,
                                           DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/demo-app.hex").path])
        XCTAssertEqual(create.status, 0, create.transcript)
        let device = "sim:vendor-ctrlpt?state=\(directory.file("vendor.json"))"
        let info = { () throws -> String in
            let result = try DFUKitBinary.run(["exec", "--profile", "vendor-ctrlpt", "--device", device, "info", "--json"])
            XCTAssertEqual(result.status, 0, result.transcript)
            return result.stdout
        }
        let before = try info()
        let flash = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", device, package])
        XCTAssertEqual(flash.status, 0, flash.transcript)
        let after = try info()
        XCTAssertNotEqual(before, after, "the next command meets the image the flash installed")
        XCTAssertEqual(try info(), after)
    }

    func testTIOADDeviceKeepsTheImageItRuns() throws {
        let directory = try TemporaryDirectory()
        let device = "sim:ti-oad?state=\(directory.file("ti.json"))"
        let version = { () throws -> String in
            let result = try DFUKitBinary.run(["exec", "--profile", "ti-oad", "--device", device, "get_sw_version", "--json"])
            XCTAssertEqual(result.status, 0, result.transcript)
            return result.stdout
        }
        let before = try version()
        let flash = try DFUKitBinary.run(["flash", "--profile", "ti-oad", "--device", device,
                                          DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/ti/oad-app-9604.bin").path])
        XCTAssertEqual(flash.status, 0, flash.transcript)
        let after = try version()
        XCTAssertNotEqual(before, after, "the next command meets the image the flash installed")
    }

    func testTelinkDeviceKeepsItsFirmwareRevision() throws {
        let directory = try TemporaryDirectory()
        let state = directory.file("telink.json")
        let flash = try DFUKitBinary.run(["flash", "--profile", "telink-ota", "--device", "sim:telink-ota?state=\(state)",
                                          DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/telink/app-v1.1.0.zip").path])
        XCTAssertEqual(flash.status, 0, flash.transcript)
        let saved = try jsonObject(String(contentsOfFile: state, encoding: .utf8))
        let memory = try XCTUnwrap(saved["memory"] as? [String: Any], "\(saved)")
        XCTAssertEqual(memory["revision"] as? String, "1.1.0")
        XCTAssertNotNil(memory["image"] as? String)
        // Read back by the next command: the state is written again from what was loaded.
        let scan = try DFUKitBinary.run(["scan", "--device", "sim:telink-ota?state=\(state)"])
        XCTAssertEqual(scan.status, 0, scan.transcript)
        let again = try jsonObject(String(contentsOfFile: state, encoding: .utf8))
        XCTAssertEqual((again["memory"] as? [String: Any])?["revision"] as? String, "1.1.0")
    }

    func testSilabsDeviceKeepsItsApplicationOrItsAppLoader() throws {
        let directory = try TemporaryDirectory()
        let state = directory.file("silabs.json")
        let flash = try DFUKitBinary.run(["flash", "--profile", "silabs-ota", "--device", "sim:silabs-ota?state=\(state)",
                                          DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/silabs/app-plain.gbl").path])
        XCTAssertEqual(flash.status, 0, flash.transcript)
        let memory = try XCTUnwrap(try jsonObject(String(contentsOfFile: state, encoding: .utf8))["memory"] as? [String: Any])
        XCTAssertEqual(memory["mode"] as? String, "application")
        let application = try XCTUnwrap(memory["application"] as? [String: Any], "\(memory)")
        XCTAssertNotNil(application["gbl"] as? String, "the application came from the GBL sent")

        // A device whose upload erased the application boots into the AppLoader, and says so.
        try Data(#"{"format":"dfukit-simulator-state","version":1,"device":"silabs-ota","address":"C0:FF:EE:00:00:01","memory":{"mode":"apploader"}}"#.utf8)
            .write(to: URL(fileURLWithPath: state))
        let scan = try DFUKitBinary.run(["scan", "--device", "sim:silabs-ota?state=\(state)"])
        XCTAssertEqual(scan.status, 0, scan.transcript)
        XCTAssertTrue(scan.stdout.contains("  OTA"), scan.stdout)
        XCTAssertFalse(scan.stdout.contains("SiLabs-App"), scan.stdout)
    }

    func testStateIsRefusedByDevicesThatDoNotKeepIt() throws {
        let directory = try TemporaryDirectory()
        let result = try DFUKitBinary.run(["scan", "--device", "sim:dialog-suota?state=\(directory.file("x.json"))"])
        XCTAssertEqual(result.status, 64, result.transcript)
        XCTAssertTrue(result.stderr.contains("sim:mcumgr-smp"), result.stderr)
        XCTAssertTrue(result.stderr.contains("sim:vendor-ctrlpt"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("x.json")))
    }

    func testAStateFileOfAnotherDeviceOrVersionIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state.json")
        try Data(#"{"format":"dfukit-simulator-state","version":1,"device":"vendor-ctrlpt","address":"C0:FF:EE:00:00:01","memory":{}}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let other = try DFUKitBinary.run(["smp", "image", "list", "--device", "sim:mcumgr-smp?state=\(path)"])
        XCTAssertEqual(other.status, 64, other.transcript)
        XCTAssertTrue(other.stderr.contains("not of a sim:mcumgr-smp"), other.stderr)

        try Data(#"{"format":"dfukit-simulator-state","version":9,"device":"mcumgr-smp","address":"C0:FF:EE:00:00:01","memory":{}}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let newer = try DFUKitBinary.run(["smp", "image", "list", "--device", "sim:mcumgr-smp?state=\(path)"])
        XCTAssertEqual(newer.status, 64, newer.transcript)
        XCTAssertTrue(newer.stderr.contains("version 9"), newer.stderr)
    }

    func testScanListsEveryDeviceOfAFleet() throws {
        let result = try DFUKitBinary.run(["scan", "--device", "sim:vendor-ctrlpt?fleet=5", "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let rows = try XCTUnwrap(try jsonObject(result.stdout)["devices"] as? [[String: Any]], result.stdout)
        XCTAssertEqual(rows.compactMap { $0["address"] as? String },
                       (1...5).map { "C0:FF:EE:00:00:0\($0)" })
    }

    func testImageListPrintsATable() throws {
        let hash = try XCTUnwrap(try slots("sim:mcumgr-smp")[0]?["hash"] as? String)
        let result = try DFUKitBinary.run(["smp", "image", "list", "--device", "sim:mcumgr-smp"])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stdoutLines.count, 2, result.stdout)
        let header = try XCTUnwrap(result.stdoutLines.first).split(separator: " ").map(String.init)
        XCTAssertEqual(header, ["slot", "version", "hash", "flags", "bootable"])
        let row = try XCTUnwrap(result.stdoutLines.last)
        XCTAssertEqual(row.split(separator: /\s{2,}/).map(String.init), ["0", "1.0.0", hash, "active, confirmed", "yes"], row)
        XCTAssertEqual(row.range(of: hash)?.lowerBound.utf16Offset(in: row),
                       result.stdoutLines[0].range(of: "hash")?.lowerBound.utf16Offset(in: result.stdoutLines[0]),
                       "the columns line up")
        XCTAssertFalse(result.stdout.contains("{"), "no JSON without --json: \(result.stdout)")
    }
}
