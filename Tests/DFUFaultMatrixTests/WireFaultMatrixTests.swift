import DFUFaultMatrix
import Foundation
import XCTest

/// The fault matrix over serial lines (its short form): every line fault across what the
/// baseline carried ends verified, or with an error whose report names what the device holds.
final class WireFaultMatrixTests: XCTestCase {
    private static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("profiles").path

    func testEveryLineFaultEndsVerifiedOrWithAReportThatAgreesWithTheDevice() async throws {
        let matrix = WireFaultMatrix(short: true, profilesDirectory: Self.profiles)
        for subject in WireMatrixSubject.all {
            let rows = try await matrix.run(subject)
            XCTAssertEqual(rows.first?.outcome, "verified", "\(subject.name): the baseline")
            XCTAssertGreaterThan(rows.count, 15, "\(subject.name): faults placed across the baseline")
            for row in rows {
                XCTAssertFalse(row.silent, "\(subject.name) \(row.fault): reported \(row.reportedHolds), device \(row.deviceStage)")
                XCTAssertFalse(row.unexplained, "\(subject.name) \(row.fault): \(row.message)")
            }
            // The faults bite: some cases are cured by the protocol, some end in an error.
            XCTAssertTrue(rows.contains { $0.fault.hasPrefix("lose") && $0.outcome == "error" }
                          || rows.contains { $0.retries + $0.resumes > 0 }, "\(subject.name): no fault had an effect")
        }
    }
}
