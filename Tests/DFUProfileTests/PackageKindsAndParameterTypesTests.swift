import DFUProfile
import Foundation
import XCTest

/// `packages:` (the package kinds a profile flashes), `changes-device:` on commands, and the
/// parameter types the command line checks `--set` against, read from how a profile uses each
/// parameter.
final class PackageKindsAndParameterTypesTests: XCTestCase {
    private func shipped(_ name: String) throws -> Profile {
        try ProfileLoader.load(path: repositoryRoot.appendingPathComponent("profiles/\(name).yaml").path)
    }

    private let mini = """
        profile: mini
        packages: [dfukit-package]
        characteristics:
          control: { service: "1234", uuid: "1235", properties: [write, notify] }
        parameters:
          interval: 0
          wide: 7
          label: hello
          hash: ""
        commands:
          start:
            changes-device: true
            characteristic: control
            request:
              - { type: u8, value: 1 }
              - { type: u16, value: every }
              - { type: u32, value: param.wide }
              - { type: u8, value: u8(param.wide) }
              - { type: bytes, value: unhex(param.hash) }
          status:
            characteristic: control
            request:
              - { type: u8, value: 2 }
        procedure:
          - set: { every: param.interval }
          - send: start
        """

    func testPackagesAndChangesDeviceAreRead() throws {
        let profile = try ProfileLoader.load(text: mini, path: "mini.yaml")
        XCTAssertEqual(profile.packageKinds, ["dfukit-package"])
        XCTAssertEqual(profile.commands["start"]?.changesDevice, true)
        XCTAssertEqual(profile.commands["status"]?.changesDevice, false)

        let without = try ProfileLoader.load(text: mini.replacingOccurrences(of: "packages: [dfukit-package]\n", with: ""),
                                             path: "mini.yaml")
        XCTAssertEqual(without.packageKinds, [], "no packages: any kind")
    }

    func testWrongPackageKindsAndChangesDeviceAreReportedAtTheirPlace() {
        let misspelled = mini.replacingOccurrences(of: "[dfukit-package]", with: "[dfukit-package, nordic-secur]")
        let place = position(of: "nordic-secur", in: misspelled)
        XCTAssertEqual(loadErrors(misspelled), [
            "mini.yaml:\(place.line):\(place.column): error: unknown package kind 'nordic-secur' (the kinds: "
                + "dfukit-package, nordic-secure, nordic-legacy, mcuboot, nrf-connect-dfu, silabs-gbl, dialog-suota, ti-oad, "
                + "telink-bin); did you mean 'nordic-secure'?",
        ])
        let empty = mini.replacingOccurrences(of: "[dfukit-package]", with: "[]")
        XCTAssertTrue(loadErrors(empty).first?.contains("'packages' must name at least one package kind") ?? false)
        let notBoolean = mini.replacingOccurrences(of: "changes-device: true", with: "changes-device: maybe")
        XCTAssertTrue(loadErrors(notBoolean).first?.contains("'changes-device' of command 'start'") ?? false,
                      loadErrors(notBoolean).joined(separator: "\n"))
    }

    func testParameterTypesComeFromTheirUse() throws {
        let profile = try ProfileLoader.load(text: mini, path: "mini.yaml")
        // Set straight into a variable that a u16 field writes.
        XCTAssertEqual(profile.parameterType(of: "interval"), .unsigned(bits: 16))
        // A u32 field and u8(...): the narrowest.
        XCTAssertEqual(profile.parameterType(of: "wide"), .unsigned(bits: 8))
        XCTAssertEqual(profile.parameterType(of: "hash"), .hex)
        XCTAssertEqual(profile.parameterType(of: "label"), .text)
        XCTAssertNil(profile.parameterType(of: "nothing"))
        XCTAssertEqual(profile.parameters(usedBy: try XCTUnwrap(profile.commands["start"])), ["hash", "wide"])
        XCTAssertEqual(profile.parameters(usedBy: try XCTUnwrap(profile.commands["status"])), [])
    }

    func testParameterValuesAreCheckedAgainstTheirType() {
        let u16 = ParameterType.unsigned(bits: 16)
        XCTAssertEqual(try u16.value(of: "12").get(), .integer(12))
        XCTAssertEqual(try u16.value(of: "0xFFFF").get(), .integer(65535))
        for bad in ["abc", "65536", "-1", "1.5", ""] {
            XCTAssertThrowsError(try u16.value(of: bad).get(), bad)
        }
        XCTAssertEqual(u16.description, "an unsigned 16-bit integer (0 to 65535)")
        XCTAssertEqual(ParameterType.unsigned(bits: 64).description, "an unsigned integer")
        XCTAssertEqual(try ParameterType.hex.value(of: "0aFF").get(), .text("0aFF"))
        for bad in ["zz", "abc", "0x00"] {
            XCTAssertThrowsError(try ParameterType.hex.value(of: bad).get(), bad)
        }
        XCTAssertEqual(try ParameterType.text.value(of: "42").get(), .text("42"), "a text parameter keeps digits as text")
    }

    /// The shipped profiles: Nordic's `prn` is a u16, SMP's `hash` hex, and each profile names
    /// the kinds it flashes and marks the commands that erase, start, activate or reset.
    func testShippedProfilesDeclareKindsParameterTypesAndDeviceChanges() throws {
        XCTAssertEqual(try shipped("nordic-secure-dfu").parameterType(of: "prn"), .unsigned(bits: 16))
        XCTAssertEqual(try shipped("nordic-legacy-dfu").parameterType(of: "prn"), .unsigned(bits: 16))
        XCTAssertEqual(try shipped("mcumgr-smp").parameterType(of: "hash"), .hex)
        XCTAssertEqual(try shipped("mcumgr-smp").parameterType(of: "mode"), .text)
        let expected: [(profile: String, kinds: [String], changing: [String], notChanging: [String])] = [
            ("vendor-ctrlpt", ["dfukit-package"], ["start", "data", "activate"], ["status", "info", "verify"]),
            ("nordic-secure-dfu", ["nordic-secure"], ["create_data", "execute", "enter_bootloader"], ["select_data", "set_prn"]),
            ("nordic-legacy-dfu", ["nordic-legacy"], ["start_dfu", "activate", "reset"], ["set_prn"]),
            ("mcumgr-smp", ["mcuboot", "nrf-connect-dfu"], ["image_erase", "reset", "image_test_hash", "upload"],
             ["image_list", "echo", "params"]),
            ("dialog-suota", ["dialog-suota"], ["memory_device", "end", "reboot"], ["gpio_map"]),
            ("silabs-ota", ["silabs-gbl"], ["enter_ota", "begin", "end"], []),
            ("ti-oad", ["ti-oad"], ["identify", "start", "enable"], ["get_block_size", "get_sw_version"]),
            ("telink-ota", ["telink-bin"], ["ota_start", "ota_end"], ["ota_version"]),
            ("mcuboot-recovery", ["mcuboot", "nrf-connect-dfu"], ["upload", "reset"], ["image_list", "echo", "params"]),
        ]
        let files = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("profiles").path)
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
        XCTAssertEqual(Set(files), Set(expected.map(\.profile)), "a shipped profile without its expectations here")
        for (name, kinds, changing, notChanging) in expected {
            let profile = try shipped(name)
            XCTAssertEqual(profile.packageKinds, kinds, name)
            for command in changing { XCTAssertEqual(profile.commands[command]?.changesDevice, true, "\(name) \(command)") }
            for command in notChanging { XCTAssertEqual(profile.commands[command]?.changesDevice, false, "\(name) \(command)") }
        }
    }
}
