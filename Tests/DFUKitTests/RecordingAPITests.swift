import DFUKit
import Foundation
import XCTest

/// `FlashRequest.recordFile` and its kin through the library's front door: a serial link
/// recorded with its wire, a batch recorded per device and attempt, and a place that cannot be
/// written refused by the preflight before anything connects.
final class RecordingAPITests: XCTestCase {
    private func mcubootImage() throws -> FirmwarePackage {
        try FirmwarePackage.open(path: Fixtures.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot/app-ecdsa-p256.bin").path)
    }

    func testAnSMPFlashOverASerialLineIsRecordedWithItsWire() async throws {
        let directory = try ScratchDirectory()
        let package = try mcubootImage()
        var request = FlashRequest(package: package, profile: try Fixtures.profile("mcumgr-smp"), device: "sim:mcumgr-smp?link=uart")
        request.recordFile = directory.file("smp.dfurec")
        let (events, error) = await collect(DFUKit.flash(request))
        XCTAssertNil(error)
        guard case let .finished(report)? = events.last else { return XCTFail("no report") }
        XCTAssertEqual(report.status, .verified)

        let recording = try RecordingReader.read(path: directory.file("smp.dfurec"))
        XCTAssertEqual(recording.header.medium, .serial)
        XCTAssertEqual(recording.header.profile, "mcumgr-smp")
        XCTAssertEqual(recording.header.images.map(\.name), package.images.map(\.name))
        XCTAssertEqual(recording.session.format, .recording(version: 1))
        XCTAssertFalse(recording.session.connections.isEmpty)
        XCTAssertTrue(recording.session.connections.allSatisfy { $0.medium == .serial })
        let wire = recording.events.filter { if case .wire = $0.kind { true } else { false } }
        XCTAssertFalse(wire.isEmpty, "the console frames as they went")
        let writes = recording.session.connections.flatMap(\.operations).filter { if case .write = $0.kind { true } else { false } }
        XCTAssertFalse(writes.isEmpty)
        let messages = recording.events.compactMap { if case let .message(message) = $0.kind { message.name } else { nil } }
        XCTAssertTrue(messages.contains("upload"), "\(Set(messages))")
    }

    func testARecordPathThatCannotBeWrittenIsRefusedBeforeTheRadio() async throws {
        let directory = try ScratchDirectory()
        let package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory))
        var request = FlashRequest(package: package, profile: try Fixtures.profile("vendor-ctrlpt"), device: "sim:vendor-ctrlpt")
        request.recordFile = directory.file("missing/s.dfurec")
        let (events, error) = await collect(DFUKit.flash(request))
        XCTAssertTrue(events.isEmpty, "nothing ran")
        XCTAssertEqual(error?.kind, .usage)
        XCTAssertEqual(error?.message, "cannot record the session to '\(directory.file("missing/s.dfurec"))': the directory "
                       + "'\(directory.file("missing"))' does not exist; create it first, or record elsewhere.\nnothing was sent to the device.")

        var exec = ExecRequest(command: "info", profile: try Fixtures.profile("vendor-ctrlpt"), device: "sim:vendor-ctrlpt")
        exec.recordFile = directory.path
        XCTAssertThrowsError(try Preflight.exec(exec)) { error in
            XCTAssertTrue("\(error)".contains("it is a directory; a recording is one file"), "\(error)")
        }
        var batch = BatchRequest(profile: try Fixtures.profile("vendor-ctrlpt"), package: package, device: "sim:vendor-ctrlpt?fleet=2")
        batch.recordDirectory = directory.file("a/b")
        XCTAssertThrowsError(try Preflight.batch(batch)) { error in
            XCTAssertTrue("\(error)".contains("the directory '\(directory.file("a"))' does not exist"), "\(error)")
        }
    }

    func testABatchRecordsEachDeviceAndAttemptInItsOwnFile() async throws {
        let directory = try ScratchDirectory()
        let package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: 4096))
        var request = BatchRequest(profile: try Fixtures.profile("vendor-ctrlpt"), package: package, device: "sim:vendor-ctrlpt?fleet=2")
        request.recordDirectory = directory.file("recordings")
        let (events, error) = await collect(DFUKit.batch(request))
        XCTAssertNil(error)
        guard case let .finished(summary)? = events.last else { return XCTFail("no summary") }
        XCTAssertEqual(summary.succeeded, 2)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.file("recordings")).sorted()
        XCTAssertEqual(files, ["C0FFEE000001-1.dfurec", "C0FFEE000002-1.dfurec"])
        for file in files {
            let recording = try RecordingReader.read(path: directory.file("recordings/\(file)"))
            XCTAssertEqual(recording.session.connections.first?.peer?.description.replacingOccurrences(of: ":", with: ""),
                           String(file.prefix(12)))
            XCTAssertEqual(recording.blobs.values.first?.count, 4096)
        }
    }
}
