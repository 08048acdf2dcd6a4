import DFUKit
import Foundation
import XCTest

/// Issue 20, item 6: one table of bad inputs, each run through every way into DFUKit (`dfukit
/// flash`, `exec`, `batch run` with flags and with a line file, `DFUKit.flash`, `DFUKit.batch`),
/// each refused before the radio with the same message and the same exit code. Every simulated
/// device keeps a journal (`journal=DIR`): after each door the journal must show no connection
/// and no write. A control case (a good input) proves the journal does record a flash.
final class FrontDoorTests: XCTestCase {
    private static let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples").path

    /// The ways in.
    enum Door: String, CaseIterable {
        case flash = "dfukit flash"
        case exec = "dfukit exec"
        case batchFlags = "dfukit batch run (flags)"
        case batchLineFile = "dfukit batch run (line file)"
        case libraryFlash = "DFUKit.flash"
        case libraryBatch = "DFUKit.batch"
    }

    /// One bad input, and what every door must answer.
    struct Case {
        var name: String
        /// A shipped profile's name, or a path.
        var profile: String
        var package: String
        var simulator: String
        var parameters: [String: String] = [:]
        /// The exec door: the command to send with `parameters` (nil: the case has no exec door).
        var execCommand: String?
        var station: String?
        /// A ledger URL for the batch doors instead of a fresh SQLite file.
        var ledger: String?
        var doors: [Door] = [.flash, .batchFlags, .batchLineFile, .libraryFlash, .libraryBatch]
        var exitCode: Int32
        /// What the refusal says, the same through every door.
        var message: String
    }

    private var scratch: TemporaryDirectory!

    override func setUpWithError() throws {
        scratch = try TemporaryDirectory(prefix: "dfukit-front-door")
    }

    override func tearDown() {
        scratch = nil
    }

    private func cases() throws -> [Case] {
        let samples = Self.samples
        // A profile whose signing-key is another key than the one the package was signed with.
        let shipped = try String(contentsOfFile: DFUKitBinary.repositoryRoot.appendingPathComponent("profiles/nordic-secure-dfu.yaml").path,
                                 encoding: .utf8)
        let wrongKey = samples + "/nordic/wrong-key-THROWAWAY.pub.pem"
        let keyed = scratch.file("nordic-keyed.yaml")
        try shipped.replacingOccurrences(of: "\nparameters:", with: "\nsigning-key: \(wrongKey)\n\nparameters:")
            .write(toFile: keyed, atomically: true, encoding: .utf8)
        // A profile that cannot tell its devices from any other advertiser (no match rule).
        let vendor = try String(contentsOfFile: DFUKitBinary.repositoryRoot.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path,
                                encoding: .utf8)
        let unmatched = scratch.file("vendor-unmatched.yaml")
        let matchBlock = try XCTUnwrap(vendor.range(of: "\nmatch:\n  name: \"DFU-*\"\n  services: [D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F]\n"))
        try vendor.replacingCharacters(in: matchBlock, with: "\n").write(toFile: unmatched, atomically: true, encoding: .utf8)
        // A package whose image bytes were changed after it was made.
        let tampered = scratch.file("tampered.zip")
        try ZipSurgery.flipFirstByte(of: "application.bin", in: try vendorPackage(), to: tampered)
        // A package whose one image is empty (made by hand: package create refuses to make one).
        let empty = scratch.file("empty.zip")
        try ZipSurgery.write(to: empty, manifest: ZipSurgery.manifest(
            file: "application.bin", size: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            crc32: "0x00000000"), entry: "application.bin", zeroBytes: 0)
        let nordic = samples + "/nordic/app-signed.zip"
        return [
            Case(name: "the profile's signing-key names another key", profile: keyed, package: nordic,
                 simulator: "nordic-secure-dfu", exitCode: 65, message: "(checked with the profile's signing-key \(wrongKey))"),
            Case(name: "a parameter too large for its field", profile: "nordic-legacy-dfu",
                 package: samples + "/nordic/legacy-app.zip", simulator: "nordic-legacy-dfu", parameters: ["prn": "70000"],
                 execCommand: "set_prn", exitCode: 64,
                 message: "parameter 'prn' is an unsigned 16-bit integer (0 to 65535), not '70000'"),
            Case(name: "a parameter that is not a number", profile: "nordic-legacy-dfu",
                 package: samples + "/nordic/legacy-app.zip", simulator: "nordic-legacy-dfu", parameters: ["prn": "abc"],
                 execCommand: "set_prn", exitCode: 64,
                 message: "parameter 'prn' is an unsigned 16-bit integer (0 to 65535), not 'abc'"),
            Case(name: "an unknown parameter", profile: "nordic-secure-dfu", package: nordic, simulator: "nordic-secure-dfu",
                 parameters: ["pnr": "12"], exitCode: 64,
                 message: "profile 'nordic-secure-dfu' has no parameter 'pnr'; did you mean 'prn'?"),
            Case(name: "a misspelt mode", profile: "mcumgr-smp", package: samples + "/mcuboot/app-unsigned.bin",
                 simulator: "mcumgr-smp", parameters: ["mode": "test-and-confrim"], exitCode: 64,
                 message: "parameter 'mode' is 'test-and-confrim', not one of its values (test-and-confirm, confirm-only, "
                    + "test-only, upload-only); did you mean 'test-and-confirm'?"),
            Case(name: "a mode written as a line file's key would be", profile: "mcumgr-smp",
                 package: samples + "/mcuboot/app-unsigned.bin", simulator: "mcumgr-smp", parameters: ["mode": "confirm_only"],
                 exitCode: 64, message: "did you mean 'confirm-only'?"),
            Case(name: "a block size below the profile's range", profile: "dialog-suota",
                 package: samples + "/dialog/app-v1.img", simulator: "dialog-suota", parameters: ["block_size": "0"],
                 exitCode: 64, message: "parameter 'block_size' is '0', below its minimum 64 (it takes 64 to 512)"),
            Case(name: "a block size above the profile's range", profile: "dialog-suota",
                 package: samples + "/dialog/app-v1.img", simulator: "dialog-suota", parameters: ["block_size": "1024"],
                 exitCode: 64, message: "parameter 'block_size' is '1024', above its maximum 512"),
            Case(name: "a bare Telink image without the version to check afterwards", profile: "telink-ota",
                 package: samples + "/telink/app-v1.1.0.bin", simulator: "telink-ota", exitCode: 65,
                 message: "no version to check after the update: a bare Telink .bin carries none"),
            Case(name: "a Telink image below the size the device's OTA server takes", profile: "telink-ota",
                 package: samples + "/telink/app-v1.1.0.bin", simulator: "telink-ota",
                 parameters: ["version": "1.1.0", "min_size": "0x5000"], exitCode: 65,
                 message: "the image's size is outside what the device's OTA server takes"),
            Case(name: "a GBL file with a tag the Gecko bootloader does not know", profile: "silabs-ota",
                 package: samples + "/silabs/app-unknown-tag.gbl", simulator: "silabs-ota", exitCode: 65,
                 message: "the Gecko bootloader refuses a file with a tag it does not know: unknown tag 0x12345678 at offset 6064"),
            Case(name: "a profile without a match rule and no address", profile: unmatched, package: try vendorPackage(),
                 simulator: "vendor-ctrlpt", execCommand: "status", exitCode: 64,
                 message: "has no match rule (name, services or manufacturer data), so it cannot tell its devices apart"),
            Case(name: "an empty image", profile: "vendor-ctrlpt", package: empty, simulator: "vendor-ctrlpt", exitCode: 65,
                 message: "image 'application' is empty: there is nothing to flash"),
            Case(name: "a tampered package", profile: "vendor-ctrlpt", package: tampered, simulator: "vendor-ctrlpt",
                 exitCode: 65, message: "do not flash it"),
            Case(name: "a package of another protocol", profile: "nordic-secure-dfu", package: try vendorPackage(),
                 simulator: "nordic-secure-dfu", exitCode: 65, message: "profile 'nordic-secure-dfu' takes only nordic-secure"),
            Case(name: "an empty station name", profile: "vendor-ctrlpt", package: try vendorPackage(), simulator: "vendor-ctrlpt",
                 station: "", doors: [.batchFlags, .batchLineFile, .libraryBatch], exitCode: 64,
                 message: "the station name is empty"),
            // The ledger is a command-line matter (the library's batch keeps claims where it is
            // told): both batch doors refuse one that cannot be opened before any device.
            Case(name: "a ledger that cannot be written", profile: "vendor-ctrlpt", package: try vendorPackage(),
                 simulator: "vendor-ctrlpt", ledger: "sqlite:/proc/no-such-directory/ledger.sqlite",
                 doors: [.batchFlags, .batchLineFile], exitCode: 74,
                 message: "ledger sqlite:/proc/no-such-directory/ledger.sqlite: open the database"),
        ]
    }

    private var madeVendorPackage: String?

    private func vendorPackage() throws -> String {
        if let madeVendorPackage { return madeVendorPackage }
        let path = scratch.file("vendor.zip")
        let result = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "1.0.0",
                                           "--output", path, Self.samples + "/demo-app.hex"])
        XCTAssertEqual(result.status, 0, result.transcript)
        madeVendorPackage = path
        return path
    }

    func testEveryBadInputIsRefusedTheSameWayThroughEveryDoorBeforeTheRadio() async throws {
        for testCase in try cases() {
            var doors = testCase.doors
            if testCase.execCommand != nil { doors.append(.exec) }
            for door in doors {
                let journal = scratch.file("journal-\(UUID().uuidString)")
                let (status, output) = try await run(testCase, through: door, journal: journal)
                let place = "\(testCase.name), through \(door.rawValue)"
                XCTAssertEqual(status, testCase.exitCode, "\(place):\n\(output)")
                XCTAssertTrue(output.contains(testCase.message), "\(place): expected '\(testCase.message)' in:\n\(output)")
                XCTAssertEqual(try journalLines(journal), [], "\(place): the device saw something")
            }
        }
    }

    /// The control: a good input through the same doors reaches the device, and the journal
    /// says so (so an empty journal above means nothing was sent, not that nothing is recorded).
    func testTheJournalRecordsAFlashThroughEachDoor() async throws {
        let good = Case(name: "a good package", profile: "vendor-ctrlpt", package: try vendorPackage(),
                        simulator: "vendor-ctrlpt", exitCode: 0, message: "")
        for door in good.doors {
            let journal = scratch.file("journal-\(UUID().uuidString)")
            let (status, output) = try await run(good, through: door, journal: journal)
            XCTAssertEqual(status, 0, "\(door.rawValue):\n\(output)")
            let lines = try journalLines(journal)
            XCTAssertTrue(lines.contains { $0.contains("\"event\":\"connect\"") }, "\(door.rawValue): \(lines)")
            XCTAssertTrue(lines.contains { $0.contains("\"event\":\"write\"") }, "\(door.rawValue): \(lines)")
        }
    }

    // MARK: - Doors

    private func run(_ testCase: Case, through door: Door, journal: String) async throws -> (Int32, String) {
        let single = "sim:\(testCase.simulator)?journal=\(journal)"
        let fleet = "sim:\(testCase.simulator)?fleet=2&journal=\(journal)"
        let sets = testCase.parameters.sorted { $0.key < $1.key }.flatMap { ["--set", "\($0.key)=\($0.value)"] }
        let ledger = testCase.ledger ?? "sqlite:" + scratch.file("ledger-\(UUID().uuidString).sqlite")
        switch door {
        case .flash:
            return try cli(["flash", "--profile", testCase.profile, "--device", single, testCase.package] + sets)
        case .exec:
            return try cli(["exec", "--profile", testCase.profile, "--device", single, testCase.execCommand!] + sets)
        case .batchFlags:
            let station = testCase.station.map { ["--station", $0] } ?? ["--station", "front-door"]
            return try cli(["batch", "run", "--profile", testCase.profile, "--package", testCase.package, "--device", fleet,
                            "--ledger", ledger] + station + sets)
        case .batchLineFile:
            var text = "profile: \(testCase.profile)\npackage: \(testCase.package)\ndevice: \"\(fleet)\"\nledger: \"\(ledger)\"\n"
            text += "station: \"\(testCase.station ?? "front-door")\"\n"
            if !testCase.parameters.isEmpty {
                text += "set:\n" + testCase.parameters.sorted { $0.key < $1.key }.map { "  \($0.key): \"\($0.value)\"\n" }.joined()
            }
            let file = scratch.file("line-\(UUID().uuidString).yaml")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            return try cli(["batch", "run", file])
        case .libraryFlash:
            let (profile, package) = try load(testCase)
            var request = FlashRequest(package: package, profile: profile, device: single)
            request.options.parameters = testCase.parameters.mapValues { ParameterValue.text($0) }
            let (_, error) = await collect(DFUKit.flash(request))
            return (error?.exitCode ?? 0, error?.message ?? "")
        case .libraryBatch:
            let (profile, package) = try load(testCase)
            var request = BatchRequest(profile: profile, package: package, device: fleet)
            request.line.parameters = testCase.parameters.mapValues { ParameterValue.text($0) }
            request.line.station = testCase.station
            let (_, error) = await collect(DFUKit.batch(request))
            return (error?.exitCode ?? 0, error?.message ?? "")
        }
    }

    private func cli(_ arguments: [String]) throws -> (Int32, String) {
        let result = try DFUKitBinary.run(arguments)
        return (result.status, result.stderr + result.stdout)
    }

    private func load(_ testCase: Case) throws -> (Profile, FirmwarePackage) {
        (try ProfileLibrary.standard().load(testCase.profile), try FirmwarePackage.open(path: testCase.package))
    }

    private func collect<Element: Sendable>(_ events: DFUKitEvents<Element>) async -> ([Element], DFUKitError?) {
        var seen: [Element] = []
        do throws(DFUKitError) {
            for try await event in events { seen.append(event) }
            return (seen, nil)
        } catch {
            return (seen, error)
        }
    }

    /// The journal's lines; none when it was never written.
    private func journalLines(_ directory: String) throws -> [String] {
        let path = directory + "/journal.log"
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}
