import Foundation
import XCTest

/// Issue 13, item 2: a profile names the package kinds it flashes (`packages:`); `flash`
/// refuses any other kind before connecting (exit 65) and names the profiles that take it,
/// unless `--force`.
final class PackageFitCommandTests: XCTestCase {
    private let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples").path
    private let profiles = DFUKitBinary.repositoryRoot.appendingPathComponent("profiles").path

    /// Was: ends `verified`, the init packet and the SoftDevice requirement ignored.
    func testANordicPackageIsRefusedByTheVendorProfile() throws {
        let package = samples + "/nordic/app-signed.zip"
        for device in ["sim:vendor-ctrlpt", "hci:tcp:127.0.0.1:9"] {
            let result = try DFUKitBinary.run(["flash", "-p", "vendor-ctrlpt", "-d", device, package])
            XCTAssertEqual(result.status, 65, "\(device): \(result.transcript)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(result.stderrLines, [
                "error: \(package): Nordic Secure DFU package (nrfutil pkg generate), package kind nordic-secure; "
                    + "profile 'vendor-ctrlpt' takes only dfukit-package",
                "  profiles that take nordic-secure: nordic-secure-dfu (\(profiles)/nordic-secure-dfu.yaml)",
                "nothing was sent to the device.",
                "--force sends it anyway.",
            ], device)
        }
        let json = try DFUKitBinary.run(["flash", "-p", "vendor-ctrlpt", "-d", "sim:vendor-ctrlpt", package, "--json"])
        XCTAssertEqual(json.status, 65, json.transcript)
        let object = try jsonObject(json.stdout)
        XCTAssertEqual(object["status"] as? String, "failed")
        XCTAssertEqual((object["error"] as? [String: Any])?["kind"] as? String, "package")
    }

    /// Was: accepted by any profile.
    func testAnMCUbootImageIsRefusedByEveryProfileButMCUmgr() throws {
        let image = samples + "/mcuboot/app-ecdsa-p256.bin"
        let others = ["vendor-ctrlpt", "nordic-secure-dfu", "nordic-legacy-dfu", "dialog-suota", "silabs-ota", "ti-oad", "telink-ota"]
        for profile in others {
            let result = try DFUKitBinary.run(["flash", "-p", profile, "-d", "sim:\(profile)", image])
            XCTAssertEqual(result.status, 65, "\(profile): \(result.transcript)")
            XCTAssertTrue(result.stderrLines.first?.contains("package kind mcuboot; profile '\(profile)' takes only ") ?? false,
                          result.transcript)
            XCTAssertEqual(result.stderrLines.dropFirst().first,
                           "  profiles that take mcuboot: mcuboot-recovery (\(profiles)/mcuboot-recovery.yaml), "
                               + "mcumgr-smp (\(profiles)/mcumgr-smp.yaml)", result.transcript)
        }
        let smp = try DFUKitBinary.run(["flash", "-p", "mcumgr-smp", "-d", "sim:mcumgr-smp", image, "--json"])
        XCTAssertEqual(smp.status, 0, smp.transcript)
    }

    /// A profile that takes nothing else on the search path says so; a profile without
    /// `packages:` takes any kind.
    func testNoFittingProfileAndProfilesWithoutPackages() throws {
        let directory = try TemporaryDirectory()
        let vendor = try String(contentsOfFile: profiles + "/vendor-ctrlpt.yaml", encoding: .utf8)
        try directory.write("open-vendor.yaml", text: vendor.replacingOccurrences(of: "\npackages: [dfukit-package]\n", with: "\n")
            .replacingOccurrences(of: "profile: vendor-ctrlpt", with: "profile: open-vendor"))
        let package = try PackageCommandTests.makePackage(in: directory, size: 2048)
        let open = try DFUKitBinary.run(["flash", "-p", "open-vendor.yaml", "-d", "sim:vendor-ctrlpt", package], in: directory.path)
        XCTAssertEqual(open.status, 0, open.transcript)

        let gbl = samples + "/silabs/app-plain.gbl"
        try directory.write("vendor-only.yaml", text: vendor)
        let refused = try DFUKitBinary.run(["flash", "-p", "vendor-only.yaml", "-d", "sim:vendor-ctrlpt", gbl], in: directory.path)
        XCTAssertEqual(refused.status, 65, refused.transcript)
        XCTAssertTrue(refused.stderr.contains("profiles that take silabs-gbl: silabs-ota ("), refused.transcript)
    }

    func testForceSendsAnotherKindAnyway() throws {
        let package = samples + "/nordic/app-signed.zip"
        let result = try DFUKitBinary.run(["flash", "-p", "vendor-ctrlpt", "-d", "sim:vendor-ctrlpt", package, "--force", "--json"])
        XCTAssertEqual(result.stderrLines.first?.hasPrefix("warning: \(package): Nordic Secure DFU package"), true, result.transcript)
        XCTAssertTrue(result.stderr.contains("  sending it anyway (forced)\n"), result.transcript)
        XCTAssertNotEqual(try jsonObject(result.stdout)["error"].map { ($0 as? [String: Any])?["kind"] as? String }, "package",
                          result.transcript)
    }

    /// `profile trace` is for looking: it traces another kind, with the warning flash refuses it with.
    func testProfileTraceWarnsAboutAnotherKind() throws {
        let package = samples + "/nordic/app-signed.zip"
        let result = try DFUKitBinary.run(["profile", "trace", "vendor-ctrlpt", package, "--device", "sim:vendor-ctrlpt", "--json"])
        XCTAssertEqual(result.stderrLines.first, "warning: \(package): Nordic Secure DFU package (nrfutil pkg generate), "
                       + "package kind nordic-secure; profile 'vendor-ctrlpt' takes only dfukit-package", result.transcript)
        XCTAssertTrue(result.stderr.contains("  dfukit flash refuses it without --force; tracing it anyway\n"), result.transcript)
        XCTAssertFalse(result.stdout.isEmpty, result.transcript)
        let own = try DFUKitBinary.run(["profile", "trace", "nordic-secure-dfu", package, "--device", "sim:nordic-secure-dfu", "--json"])
        XCTAssertFalse(own.stderr.contains("warning:"), own.transcript)
    }

    /// Every sample flashes with its own profile: the kinds each profile declares are right.
    func testEverySampleIsTakenByItsOwnProfile() throws {
        let pairs: [(sample: String, profile: String)] = [
            ("nordic/app-signed.zip", "nordic-secure-dfu"), ("nordic/sd-bl-app-signed.zip", "nordic-secure-dfu"),
            ("nordic/legacy-app.zip", "nordic-legacy-dfu"), ("mcuboot/dfu_application.zip", "mcumgr-smp"),
            ("mcuboot/app-ecdsa-p256.hex", "mcumgr-smp"), ("silabs/app-plain.gbl", "silabs-ota"),
            ("dialog/app-v1.img", "dialog-suota"), ("ti/oad-app-9604.bin", "ti-oad"), ("telink/app-v1.1.0.zip", "telink-ota"),
        ]
        for (sample, profile) in pairs {
            // Taken: past the check, the flash reaches the (unreachable) transport: 69, not 65.
            let own = try DFUKitBinary.run(["flash", "-p", profile, "-d", "hci:tcp:127.0.0.1:9", samples + "/" + sample])
            XCTAssertEqual(own.status, 69, "\(sample) with \(profile): \(own.transcript)")
            XCTAssertFalse(own.stderr.contains("package kind"), "\(sample): \(own.transcript)")
            let flash = try DFUKitBinary.run(["flash", "-p", profile == "mcumgr-smp" ? "vendor-ctrlpt" : "mcumgr-smp",
                                              "-d", "hci:tcp:127.0.0.1:9", samples + "/" + sample])
            XCTAssertEqual(flash.status, 65, "\(sample) was not refused by another profile: \(flash.transcript)")
            XCTAssertTrue(flash.stderr.contains("profiles that take ") && flash.stderr.contains(" \(profile) ("),
                          "\(sample): \(flash.transcript)")
        }
    }
}
