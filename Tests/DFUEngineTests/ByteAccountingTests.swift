import DFUEngine
import DFUSimulator
import Foundation
import XCTest

/// What a report counts: the image bytes this command moved onto the device (`bytes`), apart
/// from what the device held before (`bytesAlreadyOnDevice`); an update the device already has
/// sends nothing and says so; progress never passes the image's end.
final class ByteAccountingTests: XCTestCase {
    /// One command (a session of its own) on `world`'s device, which keeps what the command left
    /// for the next; `stopAt`: cancelled once the device holds that many bytes.
    private static func flash(_ image: FlashImage, on world: SimulatedWorld, stopAt: Int? = nil,
                              events: @escaping @Sendable (FlashEvent) -> Void = { _ in }) async throws -> FlashReport {
        let session = FlashSession(profile: try EngineTestSupport.vendorProfile(), images: [image], transport: world,
                                   address: nil) { event in
            events(event)
            if let stopAt, case let .progress(_, done, _, _) = event, done >= stopAt {
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }
        // A task of its own, so that the cancellation ends this command only; the world the
        // next command uses stays with the test.
        let box = UncheckedSession(session: session)
        return await Task { await box.session.run() }.value
    }

    private struct UncheckedSession: @unchecked Sendable { let session: FlashSession }

    func testAFreshUploadCountsTheWholeImageAsSent() async throws {
        let world = try EngineTestSupport.vendorWorld().0
        let image = EngineTestSupport.image(size: 20_000)
        let report = try await Self.flash(image, on: world)
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(report.bytes, 20_000)
        XCTAssertEqual(report.bytesAlreadyOnDevice, 0)
        XCTAssertNil(report.notSent)
    }

    func testAnUploadResumedByALaterCommandCountsOnlyWhatThatCommandSent() async throws {
        let world = try EngineTestSupport.vendorWorld().0
        let image = EngineTestSupport.image(size: 100_000, seed: 5)
        let stopped = try await Self.flash(image, on: world, stopAt: 40_000)
        XCTAssertEqual(stopped.status, .failed)
        XCTAssertEqual(stopped.error?.kind, .cancelled)
        XCTAssertGreaterThan(stopped.bytes, 0)
        XCTAssertLessThan(stopped.bytes, 100_000, "the first command stopped part way")

        nonisolated(unsafe) var starts: [Int] = []
        let resumed = try await Self.flash(image, on: world) { event in
            if case let .transferStarted(_, offset, _, _) = event { starts.append(offset) }
        }
        XCTAssertEqual(resumed.status, .verified, String(describing: resumed.error))
        let held = try XCTUnwrap(starts.first, "the second command moved data")
        XCTAssertGreaterThan(held, 0, "the device kept what the first command sent")
        XCTAssertEqual(resumed.bytesAlreadyOnDevice, held)
        XCTAssertEqual(resumed.bytes, 100_000 - held, "only what this command sent, not the whole image")
        XCTAssertEqual(resumed.bytesPerSecond, Double(resumed.bytes) / resumed.seconds, accuracy: 1e-9)
    }

    func testADeviceThatAlreadyHoldsTheImageIsSentNothing() async throws {
        let world = try EngineTestSupport.vendorWorld().0
        let image = EngineTestSupport.image(size: 48 * 1024, seed: 9)
        let first = try await Self.flash(image, on: world)
        XCTAssertEqual(first.status, .verified, String(describing: first.error))
        XCTAssertEqual(first.bytes, 48 * 1024)

        nonisolated(unsafe) var progressed = false
        let again = try await Self.flash(image, on: world) { event in
            if case .progress = event { progressed = true }
        }
        XCTAssertNotEqual(again.status, .failed, String(describing: again.error))
        XCTAssertFalse(progressed, "no data moved")
        XCTAssertEqual(again.bytes, 0)
        XCTAssertEqual(again.bytesPerSecond, 0)
        XCTAssertEqual(again.bytesAlreadyOnDevice, 48 * 1024)
        let reason = try XCTUnwrap(again.notSent)
        XCTAssertTrue(reason.contains("already held 'application'") && reason.contains("'transfer'"), reason)
    }
}
