import XCTest

/// Issue 10 through the built binary: updates to devices that reboot as the shipped firmware
/// does, resumed after faults at phases that change the device, end with a report that says what
/// the device holds.
final class RebootAndResumeCommandTests: XCTestCase {
    private let smpImage = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot/app-ecdsa-p256.bin").path
    private let legacyPackage = DFUKitBinary.repositoryRoot
        .appendingPathComponent("firmware-samples/nordic/legacy-app.zip").path

    private func flash(_ profile: String, _ device: String, _ package: String, _ extra: [String] = []) throws -> (ProcessResult, [String: Any]) {
        let result = try DFUKitBinary.run(["flash", "--profile", profile, "--device", device, package, "--json"] + extra)
        return (result, try jsonObject(result.stdout))
    }

    /// Zephyr answers `reset`, runs 250 ms more, then reboots; MCUboot swaps: the update waits
    /// for all that and ends confirmed, even when the link is lost as the reset arrives.
    func testSMPTestAndConfirmEndsConfirmedThroughTheRebootEvenAfterALostReset() throws {
        for fault in ["", "&fault=disconnect-on:reset:1", "&fault=disconnect-after-command:reset:1",
                      "&fault=disconnect-after-command:image_test:1"] {
            let (result, report) = try flash("mcumgr-smp", "sim:mcumgr-smp?swap-ms-per-kib=200" + fault, smpImage)
            XCTAssertEqual(result.status, 0, "\(fault): \(result.transcript)")
            XCTAssertEqual(report["status"] as? String, "verified", fault)
            XCTAssertEqual(report["device_holds"] as? [String], ["installed"], fault)
            XCTAssertEqual(report["phases_done"] as? [String], ["upload", "test", "reset", "confirm"], fault)
            XCTAssertTrue(result.stderr.contains("reboot: waiting up to 90 s for C0:FF:EE:00:00:01 to advertise again after 'reset'"),
                          "\(fault): \(result.stderr)")
            if !fault.isEmpty { XCTAssertGreaterThan(report["resumes"] as? Int ?? 0, 0, fault) }
        }
    }

    /// A legacy bootloader whose activation answer is lost: the update stops, says the phase
    /// cannot be resumed, and that the device holds the image or may already run it.
    func testALostLegacyActivationSaysWhatTheDeviceMayHold() throws {
        let (result, report) = try flash("nordic-legacy-dfu", "sim:nordic-legacy-dfu?fault=disconnect-on:activate:1",
                                         legacyPackage)
        XCTAssertEqual(result.status, 1, result.transcript)
        XCTAssertEqual(report["status"] as? String, "failed")
        XCTAssertEqual(report["device_holds"] as? [String], ["received", "installed"])
        let error = try XCTUnwrap(report["error"] as? [String: Any])
        XCTAssertTrue((error["message"] as? String ?? "").contains("phase 'activate' cannot be resumed"), result.transcript)
        XCTAssertEqual(error["device"] as? String,
                       "the device holds the whole new image but still runs its previous firmware; or, if what was sent "
                       + "in phase 'activate' took effect, it runs the new image")
        XCTAssertTrue(result.stderr.contains("\n  device: the device holds the whole new image"), result.stderr)
    }
}
