import DFUKit
import Foundation
import XCTest

/// `--record` on `dfukit flash`, `exec` and `batch run`: the built binary writes recordings the
/// library reads back, and a place that cannot be written is refused before anything connects,
/// in the library's words.
final class RecordCommandTests: XCTestCase {
    private let profile = DFUKitBinary.shippedProfile

    func testFlashRecordWritesTheSession() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 16 * 1024)
        let result = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:vendor-ctrlpt", package,
                                           "--record", "flash.dfurec"], in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        let recording = try RecordingReader.read(path: directory.file("flash.dfurec"))
        XCTAssertEqual(recording.header.device, "sim:vendor-ctrlpt")
        XCTAssertEqual(recording.header.package?.name, package)
        XCTAssertEqual(recording.blobs.values.map(\.count), [16 * 1024], "the image once")
        let operations = recording.session.connections.flatMap(\.operations)
        XCTAssertGreaterThan(operations.filter { if case .write = $0.kind { true } else { false } }.count, 60)
        XCTAssertTrue(operations.contains { if case .notification = $0.kind { true } else { false } })
        XCTAssertEqual(recording.session.notes, [])

        // A recording is a capture: inspected, and replayed as the device it recorded.
        let inspect = try DFUKitBinary.run(["capture", "inspect", "flash.dfurec", "--profile", profile], in: directory.path)
        XCTAssertEqual(inspect.status, 0, inspect.transcript)
        XCTAssertTrue(inspect.stdout.contains("DFUKit recording v1, 2 connection(s)"), inspect.transcript)
        let replay = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:replay?capture=flash.dfurec", package],
                                          in: directory.path)
        XCTAssertEqual(replay.status, 0, replay.transcript)
    }

    func testExecRecordWritesTheCommandAndItsAnswer() throws {
        let directory = try TemporaryDirectory()
        let result = try DFUKitBinary.run(["exec", "--profile", profile, "--device", "sim:vendor-ctrlpt", "info",
                                           "--record", "exec.dfurec"], in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        let recording = try RecordingReader.read(path: directory.file("exec.dfurec"))
        let messages = recording.events.compactMap { event -> String? in
            guard case let .message(message) = event.kind else { return nil }
            return "\(message.name ?? "?") \(message.role ?? "?")"
        }
        XCTAssertEqual(messages, ["info request", "info response"])
        XCTAssertEqual(recording.header.images, [])
    }

    func testBatchRunRecordsEachDeviceAndAttempt() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4096)
        let result = try DFUKitBinary.run(["batch", "run", "--profile", profile, "--package", package,
                                           "--device", "sim:vendor-ctrlpt?fleet=3", "--ledger", "sqlite:ledger.sqlite",
                                           "--station", "line-1", "--record", "recordings"], in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.file("recordings")).sorted()
        XCTAssertEqual(files, ["C0FFEE000001-1.dfurec", "C0FFEE000002-1.dfurec", "C0FFEE000003-1.dfurec"])
        for file in files {
            let recording = try RecordingReader.read(path: directory.file("recordings/" + file))
            XCTAssertFalse(recording.session.connections.isEmpty, file)
            XCTAssertEqual(recording.session.connections.first?.peer?.description.replacingOccurrences(of: ":", with: ""),
                           String(file.prefix(12)))
        }
    }

    func testARecordPathThatCannotBeWrittenIsRefusedBeforeAnythingConnectsInTheLibrarysWords() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4096)
        let path = directory.file("no-such-dir/s.dfurec")
        var library = ""
        XCTAssertThrowsError(try Preflight.recordFile(path)) { library = ($0 as? DFUKitError)?.message ?? "" }
        XCTAssertTrue(library.hasPrefix("cannot record the session to '\(path)': the directory"), library)

        let flash = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:vendor-ctrlpt", package,
                                          "--record", path], in: directory.path)
        XCTAssertEqual(flash.status, 64, flash.transcript)
        XCTAssertTrue(flash.stderr.contains("error: " + library), flash.transcript)
        XCTAssertFalse(flash.stderr.contains("connecting"), "refused before the radio:\n\(flash.transcript)")

        let exec = try DFUKitBinary.run(["exec", "--profile", profile, "--device", "sim:vendor-ctrlpt", "info",
                                         "--record", path], in: directory.path)
        XCTAssertEqual(exec.status, 64, exec.transcript)
        XCTAssertTrue(exec.stderr.contains("error: " + library), exec.transcript)

        let batch = try DFUKitBinary.run(["batch", "run", "--profile", profile, "--package", package,
                                          "--device", "sim:vendor-ctrlpt?fleet=1", "--ledger", "sqlite:ledger.sqlite",
                                          "--record", directory.file("no-such-dir/recordings")], in: directory.path)
        XCTAssertEqual(batch.status, 64, batch.transcript)
        XCTAssertTrue(batch.stderr.contains("the directory '\(directory.file("no-such-dir"))' does not exist"), batch.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("ledger.sqlite")), "no ledger opened")
    }
}
