import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import XCTest

/// `FlashOptions.attemptTimeout`: the session ends the attempt when the bound passes on the
/// transport's (here simulated) clock, and the error says how far it got and what the device holds.
final class AttemptTimeoutTests: XCTestCase {
    private func flash(query: String, timeout: Duration?, size: Int = 20_000) async throws
        -> (FlashReport, VendorControlPointDevice, [FlashEvent]) {
        let (world, device) = try EngineTestSupport.vendorWorld(query)
        var events: [FlashEvent] = []
        let session = FlashSession(profile: try EngineTestSupport.vendorProfile(),
                                   images: [EngineTestSupport.image(size: size)], transport: world, address: nil,
                                   options: FlashOptions(attemptTimeout: timeout)) { events.append($0) }
        return (await session.run(), device, events)
    }

    func testAnUnresponsiveDeviceCostsNoMoreThanTheBound() async throws {
        let (unbounded, _, _) = try await flash(query: "fault=unresponsive-after:9000", timeout: nil)
        XCTAssertGreaterThan(unbounded.seconds, 40, "without a bound every timeout and retry is waited out")

        let (report, device, _) = try await flash(query: "fault=unresponsive-after:9000", timeout: .seconds(20))
        XCTAssertEqual(report.status, .failed)
        XCTAssertNil(device.installed)
        let error = try XCTUnwrap(report.error)
        XCTAssertEqual(error.kind, .timeout)
        XCTAssertTrue(error.message.hasPrefix("the attempt reached its time bound of 20 s while running "), error.message)
        XCTAssertTrue(error.message.contains("bytes had reached the device"), error.message)
        XCTAssertEqual(error.address, "C0:FF:EE:00:00:01")
        XCTAssertEqual(error.image, "application")
        XCTAssertFalse(report.deviceHolds.isEmpty, "the phases still say what the device holds")
        XCTAssertFalse(report.deviceHolds.contains(.installed), "\(report.deviceHolds)")
        XCTAssertNotNil(error.deviceState)
        // Simulated seconds: the bound, not a wall-clock sleep.
        // One unanswered write with response is bounded by ATT's 30 s transaction timeout, not
        // by the attempt: the attempt ends when it returns.
        XCTAssertGreaterThanOrEqual(report.seconds, 20)
        XCTAssertLessThanOrEqual(report.seconds, 20 + 30 + 1, "the attempt ended at its bound")
        XCTAssertLessThan(report.seconds, unbounded.seconds)
    }

    func testABoundTheUpdateFitsInChangesNothing() async throws {
        let (report, device, _) = try await flash(query: "", timeout: .seconds(600))
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertNotNil(device.installed)
    }

    func testABoundShorterThanTheScanEndsBeforeConnecting() async throws {
        let (report, _, events) = try await flash(query: "", timeout: .milliseconds(1))
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.kind, .timeout, String(describing: report.error))
        XCTAssertLessThan(report.seconds, 1)
        XCTAssertFalse(events.contains { if case .imageStarted = $0 { return true } else { return false } },
                       "\(events)")
    }

    /// A device that answers none of the update's requests is given up after one reconnection,
    /// not after every resume the profile allows (each costing ATT's 30 s).
    func testADeviceThatNeverAnswersFailsFast() async throws {
        let (report, _, _) = try await flash(query: "fault=unresponsive-after:1", timeout: nil)
        XCTAssertEqual(report.status, .failed)
        let error = try XCTUnwrap(report.error)
        XCTAssertEqual(error.kind, .timeout)
        XCTAssertTrue(error.message.hasPrefix("the device does not answer: send 'info'"), error.message)
        XCTAssertEqual(report.resumes, 1)
        XCTAssertLessThan(report.seconds, 70)
        XCTAssertEqual(error.deviceState, "the update stopped before its first phase: none of this image was sent to the device")
    }

    /// A device that answered before keeps the profile's whole resume policy.
    func testADeviceThatAnsweredBeforeIsResumedAsUsual() async throws {
        let profile = try EngineTestSupport.vendorProfile()
        let (report, _, _) = try await flash(query: "fault=unresponsive-after:9000", timeout: nil)
        XCTAssertEqual(report.resumes, profile.resume.attempts)
        XCTAssertFalse(report.error?.message.contains("does not answer") ?? true, String(describing: report.error))
    }
}
