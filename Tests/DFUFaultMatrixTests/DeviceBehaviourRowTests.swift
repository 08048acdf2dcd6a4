import DFUFaultMatrix
import Foundation
import XCTest

/// The device behaviour rows (issue 21) run through the engine with the current profiles: each
/// must leave the simulated device in its true stage, whatever the report says. Whether the
/// report agrees (`silent`) is printed, not asserted: these rows join the matrix once the
/// engine observes the device after its reboot.
final class DeviceBehaviourRowTests: XCTestCase {
    private static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("profiles").path

    func testEveryBehaviourLeavesTheDeviceInItsTrueStage() async throws {
        let matrix = FaultMatrix(short: true, profilesDirectory: Self.profiles)
        XCTAssertEqual(DeviceBehaviourRow.all.count, 10)
        for row in DeviceBehaviourRow.all {
            let result = try await matrix.baseline(row.subject)
            XCTAssertEqual(result.deviceStage, row.truth.rawValue, "\(row.subject.name): \(result.deviceState)")
            print("behaviour row '\(row.subject.name)' sim:\(row.subject.device): device \(result.deviceStage) "
                  + "(\(result.deviceState)); report \(result.outcome) holds \(result.reportedHolds) "
                  + "silent \(result.silent) unexplained \(result.unexplained); \(result.message)")
        }
    }
}
