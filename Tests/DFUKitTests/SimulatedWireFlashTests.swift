import DFUKit
import Foundation
import XCTest

/// Flashes over simulated serial lines (`sim:NAME?link=...`): the profile's `links.serial`
/// carried over a wire whose device end is modeled on the firmware's own serial transport.
final class SimulatedWireFlashTests: XCTestCase {
    private func nordicPackage() throws -> FirmwarePackage {
        try FirmwarePackage.open(path: Fixtures.repositoryRoot.appendingPathComponent("firmware-samples/nordic/app-signed.zip").path)
    }

    private func flash(_ device: String, profile: String = "nordic-secure-dfu", parameters: [String: String] = [:],
                       package: FirmwarePackage? = nil) async throws -> (events: [FlashUpdate], error: DFUKitError?) {
        var request = FlashRequest(package: try package ?? nordicPackage(), profile: try Fixtures.profile(profile), device: device)
        for (name, value) in parameters { request.options.parameters[name] = ParameterValue(parsing: value) }
        return await collect(DFUKit.flash(request))
    }

    func testNordicSecureDFUOverASimulatedUARTIsVerifiedAndSaysWhatTheDeviceMayHold() async throws {
        let (events, error) = try await flash("sim:nordic-secure-dfu?link=uart")
        XCTAssertNil(error)
        guard case let .finished(report)? = events.last else { return XCTFail("no report") }
        XCTAssertEqual(report.status, .verified)
        XCTAssertEqual(report.deviceHolds, [.pending, .installed], "Secure DFU cannot be asked what runs afterwards")
        // 115200 baud carries 11,520 bytes a second; SLIP and the Write opcode add about 4 %.
        let rate = report.bytesPerSecond
        XCTAssertLessThan(rate, 11_520, "no faster than the line")
        XCTAssertGreaterThan(rate, 5_000, "a transfer without receipts keeps the line busy")
    }

    func testReceiptsOverTheSerialLineAreCheckedAsOverBLE() async throws {
        let (events, error) = try await flash("sim:nordic-secure-dfu?link=uart&baud=1000000", parameters: ["prn": "4"])
        XCTAssertNil(error)
        guard case let .finished(report)? = events.last else { return XCTFail("no report") }
        XCTAssertEqual(report.status, .verified)
    }

    func testAUSBPortThatGoesAwayAtTheResetIsSeenToReboot() async throws {
        let (events, error) = try await flash("sim:nordic-secure-dfu?link=usb")
        XCTAssertNil(error)
        guard case let .finished(report)? = events.last else { return XCTFail("no report") }
        XCTAssertEqual(report.status, .verified)
    }

    private func mcubootImage() throws -> FirmwarePackage {
        try FirmwarePackage.open(path: Fixtures.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot/app-ecdsa-p256.bin").path)
    }

    /// One profile, any link: mcumgr-smp confirms the image over a console UART (with log lines
    /// between its frames), USB CDC-ACM, a pseudo-terminal and UDP, each proven by the image list.
    func testMCUmgrSMPConfirmsTheImageOverEveryLink() async throws {
        for link in ["uart&console-log=1", "usb", "pty", "udp"] {
            let (events, error) = try await flash("sim:mcumgr-smp?link=\(link)", profile: "mcumgr-smp", package: try mcubootImage())
            XCTAssertNil(error, link)
            guard case let .finished(report)? = events.last else { return XCTFail("no report over \(link)") }
            XCTAssertEqual(report.status, .verified, link)
            XCTAssertEqual(report.deviceHolds, [.installed], link)
            XCTAssertTrue(report.evidence?.contains("active") ?? false, "\(link): \(report.evidence ?? "no evidence")")
        }
    }

    /// At 115200 baud the console framing (base64, 127-byte frames, length and CRC) costs about
    /// half as much again as the image: the transfer stays within the line and near its limit.
    func testAnSMPUploadOverAUARTRunsNearTheLinesLimit() async throws {
        let (events, _) = try await flash("sim:mcumgr-smp?link=uart", profile: "mcumgr-smp", package: try mcubootImage())
        guard case let .finished(report)? = events.last else { return XCTFail("no report") }
        let limit = 11_520.0 / 1.53
        let rate = Double(report.bytes) / (try XCTUnwrap(report.transferSeconds))
        XCTAssertLessThan(rate, limit * 1.02, "no faster than the line can carry")
        XCTAssertGreaterThan(rate, limit * 0.85, "requests in flight keep the line busy")
    }

    /// MCUboot serial recovery: the bootloader's image list proves slot 0 holds the image; what
    /// runs after the reset is proven only by an application that answers SMP on the port.
    func testMCUbootSerialRecoverySaysWhatItCouldProve() async throws {
        let (plain, error) = try await flash("sim:mcuboot-recovery?link=uart", profile: "mcuboot-recovery",
                                             package: try mcubootImage())
        XCTAssertNil(error)
        guard case let .finished(report)? = plain.last else { return XCTFail("no report") }
        XCTAssertEqual(report.status, .verified)
        XCTAssertEqual(report.deviceHolds, [.pending, .installed], "nothing showed which image runs")
        XCTAssertTrue(report.evidence?.contains("serial recovery has no command that says which image runs") ?? false,
                      report.evidence ?? "")

        let (shown, _) = try await flash("sim:mcuboot-recovery?link=usb", profile: "mcuboot-recovery",
                                         parameters: ["app_smp": "1"], package: try mcubootImage())
        guard case let .finished(proven)? = shown.last else { return XCTFail("no report") }
        XCTAssertEqual(proven.deviceHolds, [.installed], "the application's image list shows it running")

        let (_, silent) = try await flash("sim:mcuboot-recovery?link=usb&app-smp=0", profile: "mcuboot-recovery",
                                          parameters: ["app_smp": "1"], package: try mcubootImage())
        XCTAssertEqual(silent?.kind, .device, "the application did not answer")
        XCTAssertEqual(silent?.report?.deviceHolds, [.pending, .installed])
    }

    func testALinkTheSimulatedDeviceDoesNotHaveIsRefusedBeforeAnythingRuns() async throws {
        let (_, error) = try await flash("sim:nordic-secure-dfu?link=udp")
        XCTAssertEqual(error?.kind, .usage)
        XCTAssertTrue(error?.message.contains("it takes link=uart, usb, pty") ?? false, error?.message ?? "")
        let directory = try ScratchDirectory()
        let (_, noLink) = try await flash("sim:nordic-secure-dfu?link=uart", profile: "vendor-ctrlpt",
                                          package: try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory)))
        XCTAssertEqual(noLink?.kind, .usage)
        XCTAssertTrue(noLink?.message.contains("declares no serial link") ?? false, noLink?.message ?? "")
    }
}
