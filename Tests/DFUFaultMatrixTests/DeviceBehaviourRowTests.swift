import DFUFaultMatrix
import Foundation
import XCTest

/// The device behaviour rows (issue 21) run through the engine with the current profiles: each
/// must leave the simulated device in its true stage, and the report must name that stage among
/// what the device may hold (not silent), with an error that says what the device holds.
final class DeviceBehaviourRowTests: XCTestCase {
    private static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("profiles").path

    func testEveryBehaviourLeavesTheDeviceInItsTrueStage() async throws {
        let matrix = FaultMatrix(short: true, profilesDirectory: Self.profiles)
        XCTAssertEqual(DeviceBehaviourRow.all.count, 10)
        for row in DeviceBehaviourRow.all {
            let result = try await matrix.baseline(row.subject)
            XCTAssertEqual(result.deviceStage, row.truth.rawValue, "\(row.subject.name): \(result.deviceState)")
            XCTAssertFalse(result.silent, "\(row.subject.name): the report \(result.reportedHolds) leaves out the device's "
                           + "\(result.deviceStage): \(result.message)")
            XCTAssertFalse(result.unexplained, "\(row.subject.name): \(result.message)")
            print("behaviour row '\(row.subject.name)' sim:\(row.subject.device): device \(result.deviceStage) "
                  + "(\(result.deviceState)); report \(result.outcome) holds \(result.reportedHolds) "
                  + "silent \(result.silent) unexplained \(result.unexplained); \(result.message)")
        }
    }
}
