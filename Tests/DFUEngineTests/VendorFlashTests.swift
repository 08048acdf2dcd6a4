import DFUEngine
import DFUSimulator
import XCTest

/// End-to-end: the real vendor profile, run by the engine, against the simulated device.
final class VendorFlashTests: XCTestCase {
    func testFlashEndsVerifiedAndTheDeviceHoldsTheImage() async throws {
        let image = EngineTestSupport.image(size: 100_000)
        let (report, device) = try await EngineTestSupport.flash(image)
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertEqual(report.bytes, 100_000)
        XCTAssertEqual(device.installed?.data, image.data)
        XCTAssertEqual(Array(device.commandLog.prefix(2)), [0x06, 0x05], "the procedure asks what the device runs and holds first")
        XCTAssertEqual(Array(device.commandLog.suffix(2)), [0x04, 0x06], "and ends with activate, then asks what runs")
        XCTAssertGreaterThan(report.seconds, 0)
    }

    func testProgressReachesTheImageSize() async throws {
        let image = EngineTestSupport.image(size: 20_000)
        nonisolated(unsafe) var progress: [Int] = []
        let (report, _) = try await EngineTestSupport.flash(image) { event in
            if case let .progress(_, done, total, _) = event {
                XCTAssertEqual(total, 20_000)
                progress.append(done)
            }
        }
        XCTAssertEqual(report.status, .verified)
        XCTAssertEqual(progress, [4096, 8192, 12288, 16384, 20000])
    }

    func testDisconnectMidUploadResumesFromTheDeviceOffset() async throws {
        let image = EngineTestSupport.image(size: 100_000, seed: 7)
        let (report, device) = try await EngineTestSupport.flash(image, query: "fault=disconnect-after:40000")
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertEqual(report.resumes, 1)
        XCTAssertEqual(device.installed?.data, image.data)
        // Resumed, not restarted: only one start command.
        XCTAssertEqual(device.commandLog.filter { $0 == 0x01 }.count, 1)
    }

    func testRepeatedDisconnectsAtManyOffsetsAlwaysEndVerified() async throws {
        let image = EngineTestSupport.image(size: 30_000, seed: 3)
        for cut in stride(from: 500, to: 30_000, by: 3_700) {
            let (report, device) = try await EngineTestSupport.flash(
                image, query: "mtu=23&fault=disconnect-after:\(cut)&fault=disconnect-after:\(cut + 9_000)")
            XCTAssertEqual(report.status, .verified, "cut at \(cut): \(String(describing: report.error))")
            XCTAssertEqual(device.installed?.data, image.data, "cut at \(cut)")
        }
    }

    func testDroppedNotificationIsRecoveredByResending() async throws {
        let image = EngineTestSupport.image(size: 20_000)
        let (report, device) = try await EngineTestSupport.flash(image, query: "fault=drop-notification:4")
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertGreaterThan(report.retries, 0)
        XCTAssertEqual(device.installed?.data, image.data)
    }

    func testCorruptedNotificationIsRecoveredByRetrying() async throws {
        let image = EngineTestSupport.image(size: 20_000)
        let (report, device) = try await EngineTestSupport.flash(image, query: "fault=corrupt-notification:4")
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertGreaterThan(report.retries, 0)
        XCTAssertEqual(device.installed?.data, image.data)
    }

    func testBusyDeviceIsRetried() async throws {
        let image = EngineTestSupport.image(size: 20_000)
        let (report, device) = try await EngineTestSupport.flash(image, query: "fault=busy:3")
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertEqual(device.installed?.data, image.data)
    }

    func testUnresponsiveDeviceFailsWithATimeoutNamingTheStep() async throws {
        let image = EngineTestSupport.image(size: 20_000)
        let (report, device) = try await EngineTestSupport.flash(image, query: "fault=unresponsive-after:9000")
        XCTAssertEqual(report.status, .failed)
        XCTAssertNil(device.installed)
        let error = try XCTUnwrap(report.error)
        XCTAssertEqual(error.kind, .timeout)
        XCTAssertTrue(error.description.contains("send 'data'"), error.description)
    }

    func testTooManyDisconnectsFailClearly() async throws {
        let image = EngineTestSupport.image(size: 50_000)
        let cuts = stride(from: 5_000, through: 45_000, by: 5_000).map { "fault=disconnect-after:\($0)" }
        let (report, device) = try await EngineTestSupport.flash(image, query: cuts.joined(separator: "&"))
        XCTAssertEqual(report.status, .failed)
        XCTAssertNil(device.installed)
        XCTAssertEqual(report.error?.kind, .disconnected)
        XCTAssertTrue(report.error?.description.contains("gave up after 5 resume(s)") ?? false,
                      String(describing: report.error))
    }

    func testImageTooLargeForTheSlotIsRefusedByTheDevice() async throws {
        let image = EngineTestSupport.image(size: (1 << 20) + 1)
        let (report, _) = try await EngineTestSupport.flash(image)
        XCTAssertEqual(report.status, .failed)
        let text = report.error?.description ?? ""
        XCTAssertTrue(text.contains("too-large"), text)
        XCTAssertTrue(text.contains("send 'start'"), text)
    }

    func testSimulatedTimeIsDeterministic() async throws {
        let image = EngineTestSupport.image(size: 50_000)
        let (first, _) = try await EngineTestSupport.flash(image)
        let (second, _) = try await EngineTestSupport.flash(image)
        XCTAssertEqual(first.seconds, second.seconds)
    }

    func testCancelledFlashStopsWithACancelledErrorAndNothingActivated() async throws {
        let image = EngineTestSupport.image(size: 20_000)
        let task = Task { () -> (FlashReport, [UInt8]) in
            let (world, device) = try EngineTestSupport.vendorWorld()
            let session = FlashSession(profile: try EngineTestSupport.vendorProfile(), images: [image],
                                       transport: world, address: nil)
            withUnsafeCurrentTask { $0?.cancel() }
            let report = await session.run()
            return (report, device.commandLog)
        }
        let (report, commands) = try await task.value
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.kind, .cancelled)
        XCTAssertEqual(report.error?.kind, .cancelled)
        XCTAssertFalse(commands.contains(0x04), "a cancelled update never activates")
    }
}
