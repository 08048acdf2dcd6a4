@testable import DFUKit
import Foundation
import XCTest

/// `DFUKit.flash` against simulated devices: its events, its outcome, its errors, cancellation.
final class FlashAPITests: XCTestCase {
    func testFlashYieldsPhasesProgressAndAVerifiedOutcome() async throws {
        let directory = try ScratchDirectory()
        let size = 24 * 1024
        let package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: size))
        let (events, error) = await collect(DFUKit.flash(package, profile: try Fixtures.profile("vendor-ctrlpt"),
                                                         device: "sim:vendor-ctrlpt"))
        XCTAssertNil(error)
        guard case let .finished(report)? = events.last else { return XCTFail("the last event is not .finished: \(events)") }
        XCTAssertEqual(report.status, .verified)
        XCTAssertEqual(report.bytes, size)
        XCTAssertEqual(report.address, "C0:FF:EE:00:00:01")
        XCTAssertFalse(report.deviceHolds.isEmpty, "the report says what the device holds")
        let progress = events.compactMap { event -> (Int, Int)? in
            if case let .progress(_, bytes, total, _) = event { return (bytes, total) }
            return nil
        }
        XCTAssertEqual(progress.last?.0, size)
        XCTAssertTrue(progress.allSatisfy { $0.1 == size })
        XCTAssertEqual(progress.map(\.0), progress.map(\.0).sorted(), "progress never goes back")
        let started = events.compactMap { if case let .phaseStarted(name) = $0 { name } else { nil } }
        let finished = events.compactMap { if case let .phaseFinished(name, _) = $0 { name } else { nil } }
        XCTAssertFalse(started.isEmpty, "the vendor profile declares phases")
        XCTAssertEqual(Set(started).subtracting(finished), [], "every phase that started finished")
        XCTAssertTrue(events.contains { if case .connected = $0 { true } else { false } })
    }

    func testLostLinkIsResumedAndReported() async throws {
        let directory = try ScratchDirectory()
        let package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: 48 * 1024))
        let (events, error) = await collect(DFUKit.flash(package, profile: try Fixtures.profile("vendor-ctrlpt"),
                                                         device: "sim:vendor-ctrlpt?fault=disconnect-after:20000"))
        XCTAssertNil(error)
        XCTAssertTrue(events.contains { if case .resuming = $0 { true } else { false } }, "\(events)")
        guard case let .finished(report)? = events.last else { return XCTFail("no outcome") }
        XCTAssertEqual(report.resumes, 1)
        XCTAssertEqual(report.status, .verified)
    }

    func testDamagedPackageIsRefusedBeforeTheTransportOpens() async throws {
        let directory = try ScratchDirectory()
        let path = try Fixtures.vendorPackage(in: directory)
        let intact = try FirmwarePackage.open(path: path)
        var data = intact.images[0].data
        data[100] ^= 0xFF
        let image = FirmwareImage(manifestImage: intact.manifest.images[0], data: data)
        let damaged = FirmwarePackage(path: path, format: intact.format, manifest: intact.manifest, images: [image])
        let (events, error) = await collect(DFUKit.flash(damaged, profile: try Fixtures.profile("vendor-ctrlpt"),
                                                         device: "sim:vendor-ctrlpt"))
        XCTAssertTrue(events.isEmpty)
        XCTAssertEqual(error?.kind, .package)
        XCTAssertEqual(error?.exitCode, 65)
        XCTAssertTrue(error?.message.contains("nothing was sent") ?? false, error?.message ?? "")
        XCTAssertNil(error?.report)
    }

    func testUnknownSchemeIsAUsageErrorNamingTheRegisteredOnes() async throws {
        let directory = try ScratchDirectory()
        let package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory))
        let (_, error) = await collect(DFUKit.flash(package, profile: try Fixtures.profile("vendor-ctrlpt"), device: "usb:0"))
        XCTAssertEqual(error?.kind, .usage)
        XCTAssertTrue(error?.message.contains("bluez:, hci:, serial:, sim:, udp:") ?? false, error?.message ?? "")
    }

    func testDeviceFailureCarriesTheReport() async throws {
        let directory = try ScratchDirectory()
        let package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: 48 * 1024))
        var request = FlashRequest(package: package, profile: try Fixtures.profile("vendor-ctrlpt"),
                                   device: "sim:vendor-ctrlpt?fault=unresponsive-after:8000")
        request.options = FlashOptions()
        let (_, error) = await collect(DFUKit.flash(request))
        XCTAssertEqual(error?.kind, .device, error?.message ?? "")
        XCTAssertEqual(error?.exitCode, 1)
        let report = try XCTUnwrap(error?.report)
        XCTAssertEqual(report.status, .failed)
        XCTAssertGreaterThan(report.bytes, 0)
    }

    /// Cancelling the consuming task stops the flash, and the sequence still says what the device holds.
    func testCancellingTheTaskStopsTheFlashAndSaysWhatTheDeviceHolds() async throws {
        let directory = try ScratchDirectory()
        let size = 96 * 1024
        let package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: size))
        let profile = try Fixtures.profile("vendor-ctrlpt")
        // realtime=8: the simulated device paces itself on the wall clock (8 times faster), so the flash is still
        // running when the task cancels itself at its first progress event.
        let events = DFUKit.flash(package, profile: profile, device: "sim:vendor-ctrlpt?realtime=8")
        let task = Task { () -> (progress: Int, error: DFUKitError?) in
            var progress = 0
            do throws(DFUKitError) {
                for try await event in events {
                    guard case .progress = event else { continue }
                    progress += 1
                    if progress == 1 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (progress, nil)
            } catch {
                return (progress, error)
            }
        }
        let (progress, error) = await task.value
        XCTAssertGreaterThanOrEqual(progress, 1)
        XCTAssertEqual(error?.kind, .cancelled, "a cancelled flash ends with .cancelled")
        XCTAssertEqual(error?.exitCode, 130)
        let report = try XCTUnwrap(error?.report, "a cancelled flash reports what the device holds")
        XCTAssertEqual(report.status, .failed)
        XCTAssertLessThan(report.bytes, size)
        XCTAssertEqual(report.error?.kind, .cancelled)
        XCTAssertNotNil(report.error?.deviceState, "the report says what the device holds in words")
    }

    /// Leaving the loop early (a `break`) drops the sequence, which cancels the flash.
    func testBreakingOutOfTheLoopCancelsTheFlash() async throws {
        let directory = try ScratchDirectory()
        let package = try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: 96 * 1024))
        let profile = try Fixtures.profile("vendor-ctrlpt")
        func flashUntilFirstProgress() async throws -> Task<Void, Never> {
            let events = DFUKit.flash(package, profile: profile, device: "sim:vendor-ctrlpt?realtime=8")
            let operation = events.run.task
            for try await event in events {
                if case .progress = event { break }
            }
            withExtendedLifetime(events) {
                XCTAssertFalse(operation.isCancelled, "still running while the sequence is held")
            }
            return operation
        }
        let operation = try await flashUntilFirstProgress()
        XCTAssertTrue(operation.isCancelled, "the sequence is gone, so the flash is cancelled")
        await operation.value
    }
}
