import DFUKit
import Foundation
import XCTest

/// `serial:` and `udp:` through the one front door: whatever way a run comes in (flash, exec,
/// batch), a profile without the link, or an option its framing cannot use, is refused the
/// same way before anything is opened.
final class WireSchemeTests: XCTestCase {
    private func mcubootImage() throws -> FirmwarePackage {
        try FirmwarePackage.open(path: Fixtures.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot/app-ecdsa-p256.bin").path)
    }

    private func refusals(profile: String, device: String) async throws -> [DFUKitError?] {
        let chosen = try Fixtures.profile(profile)
        let flash = FlashRequest(package: try mcubootImage(), profile: chosen, device: device)
        let exec = ExecRequest(command: chosen.commands.keys.sorted()[0], profile: chosen, device: device)
        let batch = BatchRequest(profile: chosen, package: try mcubootImage(), device: device)
        var errors: [DFUKitError?] = []
        errors.append(await collect(DFUKit.flash(flash)).error)
        errors.append(await collect(DFUKit.exec(exec)).error)
        errors.append(await collect(DFUKit.batch(batch)).error)
        return errors
    }

    func testAProfileWithoutASerialLinkIsRefusedTheSameWayByFlashExecAndBatch() async throws {
        let errors = try await refusals(profile: "vendor-ctrlpt", device: "serial:/dev/no-such-port")
        XCTAssertEqual(errors.count, 3)
        for error in errors {
            XCTAssertEqual(error?.kind, .usage)
            XCTAssertEqual(error?.message, "profile 'vendor-ctrlpt' declares no serial link (links.serial): it runs over "
                           + "Bluetooth only, so it cannot say how its messages travel on serial:/dev/no-such-port; use a "
                           + "profile with a links.serial entry, or add one (profiles/README.md, section links)")
        }
    }

    func testAProfileWithASerialLinkButNoUDPLinkIsRefusedOnUDP() async throws {
        for error in try await refusals(profile: "nordic-secure-dfu", device: "udp:127.0.0.1:1337") {
            XCTAssertEqual(error?.kind, .usage)
            XCTAssertTrue(error?.message.contains("declares no udp link (links.udp): it declares serial only") ?? false,
                          error?.message ?? "no error")
        }
    }

    func testALineLengthForAFramingWithoutLinesIsRefused() async throws {
        for error in try await refusals(profile: "nordic-secure-dfu", device: "serial:/dev/ttyACM0?line-length=256") {
            XCTAssertEqual(error?.kind, .usage)
            XCTAssertTrue(error?.message.contains("frames its serial messages with slip; leave it out") ?? false,
                          error?.message ?? "no error")
        }
    }

    func testDeviceStringMistakesSayWhatTheSchemeTakes() {
        let registry = TransportRegistry.standard
        let cases: [(String, String)] = [
            ("serial:/dev/ttyACM0?speed=9600", "unknown option 'speed'; serial: takes baud=, flow=, line-length=, buffer="),
            ("serial:/dev/ttyACM0?baud=12345", "not a standard rate termios can set"),
            ("serial:/dev/ttyACM0?flow=xon", "flow= must be none or hardware"),
            ("serial:/dev/ttyACM0?buffer=8", "buffer= must be a number from 16"),
            ("udp:127.0.0.1:1337?line-length=127", "unknown option 'line-length'; udp: takes buffer="),
            ("udp:[::1", "not closed with ]"),
        ]
        for (device, message) in cases {
            XCTAssertThrowsError(try registry.locate(device), device) { error in
                let error = error as? DFUKitError
                XCTAssertEqual(error?.kind, .usage, device)
                XCTAssertTrue(error?.message.contains(message) ?? false, "\(device): \(error?.message ?? "")")
            }
        }
        XCTAssertNoThrow(try registry.locate("udp:127.0.0.1"), "the port defaults to the profile's, else 1337")
        XCTAssertNoThrow(try registry.locate("serial:usb-serial=E3B0C442?baud=1000000&flow=hardware"))
    }

    func testAWireDeviceIsKnownByAStableAddressFromWhatNamesItsPort() throws {
        let profile = try Fixtures.profile("mcumgr-smp")
        let first = try UDPScheme().open(TransportRequest(target: "127.0.0.1:1337", profile: profile))
        let again = try UDPScheme().open(TransportRequest(target: "127.0.0.1", profile: profile))
        let other = try UDPScheme().open(TransportRequest(target: "127.0.0.2:1337", profile: profile))
        XCTAssertNotNil(first.soleDevice)
        XCTAssertEqual(first.soleDevice, again.soleDevice, "the default port is 1337")
        XCTAssertNotEqual(first.soleDevice, other.soleDevice)
    }
}
