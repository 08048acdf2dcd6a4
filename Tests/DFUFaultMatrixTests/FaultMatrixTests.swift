@testable import DFUFaultMatrix
import DFUProfile
import Foundation
import XCTest

/// The fault matrix's short form in `make test` (the full one is `make fault-matrix`): no case
/// may end with a report that disagrees with what the device holds, every error says what the
/// device holds, and every phase of every profile is hit. And the matrix itself can fail: a
/// profile that overstates what a phase achieves is caught.
final class FaultMatrixTests: XCTestCase {
    private static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("profiles").path

    /// The phases each subject runs through.
    private static let phases: [String: [String]] = [
        "vendor-ctrlpt": ["transfer", "verify", "activate"],
        "nordic-secure-dfu": ["init-packet", "firmware", "activate"],
        "nordic-secure-dfu buttonless": ["bootloader", "init-packet", "firmware", "activate"],
        "nordic-secure-dfu settings reload": ["init-packet", "firmware", "activate"],
        "nordic-legacy-dfu": ["transfer", "validate", "activate"],
        "mcumgr-smp": ["upload", "test", "reset", "confirm"],
        "mcumgr-smp confirm-only": ["upload", "mark-permanent", "reset-permanent"],
        "mcumgr-smp test-only": ["upload", "test", "reset"],
        "dialog-suota": ["upload", "validate", "reboot"],
        "ti-oad": ["transfer", "enable"],
        "telink-ota": ["transfer", "install"],
        "telink-ota result feedback": ["transfer", "install"],
        // Its last phase, boot, only reconnects and reads the application version: no fault kind
        // of the simulator acts on a read yet, so the matrix does not reach it.
        "silabs-ota": ["upload", "verify"],
    ]

    func testTheShortMatrixHasNoSilentOrUnexplainedCaseAndHitsEveryPhase() async throws {
        let matrix = FaultMatrix(short: true, profilesDirectory: Self.profiles)
        XCTAssertEqual(Set(MatrixSubject.all.map(\.name)), Set(Self.phases.keys))
        for subject in MatrixSubject.all {
            let rows = try await matrix.run(subject)
            XCTAssertGreaterThan(rows.count, 20, subject.name)
            XCTAssertEqual(rows.first?.outcome, "verified", "\(subject.name): the baseline")
            for row in rows where row.silent || row.unexplained {
                XCTFail("\(subject.name): \(row.fault) in \(row.phase): \(row.outcome), device \(row.deviceStage) "
                        + "(\(row.deviceState)), reported \(row.reportedHolds): \(row.message)")
            }
            let hit = Set(rows.map(\.phase))
            for phase in Self.phases[subject.name] ?? [] {
                XCTAssertTrue(hit.contains(phase), "\(subject.name): no fault hit phase '\(phase)' (hit: \(hit.sorted()))")
            }
        }
    }

    /// The Telink refusal rows: with the result notification, the update ends at once naming
    /// the result (no resume); without it, the link's end is all the client sees, and it resumes.
    func testTelinkRefusalRowsEndFailedAndWithFeedbackAreNotResumed() async throws {
        let matrix = FaultMatrix(short: true, profilesDirectory: Self.profiles)
        for name in ["telink-ota", "telink-ota result feedback"] {
            let subject = try XCTUnwrap(MatrixSubject.all.first { $0.name == name })
            let profile = try ProfileLoader.load(path: Self.profiles + "/telink-ota.yaml")
            let row = try await matrix.flash(subject, profile: profile, faults: [], settings: subject.refusals).row
            XCTAssertEqual(row.fault, "refusal:min-size=32768", name)
            XCTAssertEqual(row.outcome, "error", name)
            XCTAssertFalse(row.silent || row.unexplained, "\(name): \(row.message)")
            XCTAssertEqual(row.reportedHolds, ["unchanged"], name)
            if name.hasSuffix("feedback") {
                XCTAssertEqual(row.resumes, 0, row.message)
                XCTAssertTrue(row.message.contains("OTA_FW_SIZE_ERR") && row.message.contains("not retried"), row.message)
            } else {
                XCTAssertEqual(row.resumes, 3, row.message)
            }
        }
    }

    /// An SMP profile whose reset phase claims the device runs the new image for good (it runs
    /// it unconfirmed): an update that stops before the confirm is caught reporting it.
    func testAProfileThatOverstatesAPhaseIsCaught() async throws {
        let text = try String(contentsOfFile: Self.profiles + "/mcumgr-smp.yaml", encoding: .utf8)
        let overstated = text.replacingOccurrences(of: "achieves: unconfirmed", with: "achieves: installed")
        XCTAssertNotEqual(overstated, text)
        let profile = try ProfileLoader.load(text: overstated, path: "overstated.yaml")
        let subject = try XCTUnwrap(MatrixSubject.all.first { $0.name == "mcumgr-smp test-only" })
        let rows = try await FaultMatrix(short: true, profilesDirectory: Self.profiles).run(subject, profile: profile)
        XCTAssertTrue(rows.contains { $0.silent }, "no silent row: \(rows.map { "\($0.fault) \($0.outcome)" })")
    }
}
