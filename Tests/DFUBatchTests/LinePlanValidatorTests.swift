import DFUBatch
import DFUEngine
import DFUProfile
import XCTest

/// A line is checked against its profile and package before any device is touched.
final class LinePlanValidatorTests: XCTestCase {
    private func profile(_ name: String = "vendor-ctrlpt") throws -> Profile {
        try ProfileLoader.load(path: BatchRunnerTests.root.appendingPathComponent("profiles/\(name).yaml").path)
    }

    private let image = FlashImage(name: "application", version: "1.2.0", data: Array(repeating: 0x5A, count: 64))

    /// The rendered errors of validating `text` (a line file) against `profile`.
    private func errors(_ text: String, profile: Profile? = nil, images: [FlashImage]? = nil) throws -> [String] {
        let line = try LineFileLoader.load(text: text, path: "line.yaml")
        let profile = try profile ?? self.profile()
        do {
            _ = try LinePlanValidator.validate(line, profile: profile, images: images ?? [image])
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    func testALineWithoutAddressesNeedsAProfileWithAMatchRule() throws {
        var profile = try profile()
        profile.match = MatchRules(namePattern: nil, services: [])
        let found = try errors("profile: anything\nname: 'DFU-*'\n", profile: profile)
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.hasPrefix("line.yaml:1:10: error: profile 'vendor-ctrlpt' has no match rule") ?? false,
                      "\(found)")
        XCTAssertEqual(try errors("devices: [C0:FF:EE:00:00:01]", profile: profile), [])
        XCTAssertEqual(try LineFileLoader.load(text: "name: 'DFU-*'\ntimeout: 90s\n", path: "line.yaml").namePattern, "DFU-*")
    }

    func testAGoodLinePasses() throws {
        XCTAssertEqual(try errors("""
            checks:
              - { exec: info, expect: [info.sha256 == image.sha256, info.size == image.size] }
            skip-installed: { exec: info, installed: info.sha256 == image.sha256 }
            """), [])
    }

    func testAnUnknownCommandIsReportedAtItsPlace() throws {
        XCTAssertEqual(try errors("""
            checks:
              - exec: infoo
                expect: [infoo.sha256 == image.sha256]
            """), ["line.yaml:2:11: error: profile 'vendor-ctrlpt' has no command 'infoo'; did you mean 'info'? "
                   + "(it has: activate, data, info, start, status, verify); a check is { exec: COMMAND, expect: [...] }"])
    }

    func testAnUnknownFieldAndAWrongKindAreReportedAtTheirColumns() throws {
        let found = try errors("""
            checks:
              - exec: info
                expect:
                  - info.version == '1.2.0'
                  - info.sha256 == image.version
            """)
        XCTAssertEqual(found, [
            "line.yaml:4:9: error: in 'info.version == '1.2.0'': 'info' has no field 'version' "
                + "(it has: sha256, size, status)",
            "line.yaml:5:9: error: in 'info.sha256 == image.version': '==' compares bytes with text: they are never equal",
        ])
    }

    func testParametersMustExistAndHaveTheirKind() throws {
        let nordic = try profile("nordic-secure-dfu")
        let found = try errors("set: { prm: 12, prn: twelve }", profile: nordic,
                               images: [FlashImage(name: "application", version: "", data: [1, 2], initPacket: [3])])
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertTrue(found[0].hasPrefix("line.yaml:1:8: error: profile 'nordic-secure-dfu' has no parameter 'prm'; did you mean 'prn'?"),
                      found[0])
        XCTAssertTrue(found[1].hasPrefix("line.yaml:1:17: error: parameter 'prn' is an unsigned 16-bit integer (0 to 65535), "
                                         + "not 'twelve'"), found[1])
    }

    func testATextParameterGivenANumberGetsItAsText() throws {
        var line = LineConfiguration()
        line.parameters = ["version": .integer(12)]
        let telinkImage = FlashImage(name: "application", version: "", data: [1, 2, 3])
        let checked = try LinePlanValidator.validate(line, profile: try profile("telink-ota"), images: [telinkImage])
        XCTAssertEqual(checked.parameters["version"], .text("12"))
    }

    func testAFlagIsNamedWhenThereIsNoPlace() throws {
        var line = LineConfiguration()
        line.parameters = ["nope": .integer(1)]
        XCTAssertThrowsError(try LinePlanValidator.validate(line, profile: try profile(), images: [image])) { error in
            XCTAssertEqual((error as? ProfileDiagnostics)?.errors.first?.description,
                           "--set nope=1: error: profile 'vendor-ctrlpt' has no parameter 'nope'; it has no parameters")
        }
    }

    func testAPackageWithoutWhatTheProfileUsesDoesNotFit() throws {
        let found = try errors("package: app.zip", profile: try profile("nordic-secure-dfu"))
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertTrue(found[0].hasPrefix("line.yaml:1:10: error: image 'application' of the package has no init packet"), found[0])
        XCTAssertTrue(found[0].hasSuffix("this package does not fit the profile"), found[0])
        XCTAssertEqual(try errors("package: app.zip", images: []), ["line.yaml:1:10: error: the package holds no image to flash"])
    }

    func testSkipInstalledNeedsAReadableCharacteristicAndACondition() throws {
        let telink = try profile("telink-ota")
        let telinkImage = FlashImage(name: "application", version: "1.1.0", data: [1, 2, 3])
        XCTAssertEqual(try errors("skip-installed: { read: firmware_revision, installed: firmware_revision.text == image.version }",
                                  profile: telink, images: [telinkImage]), [])
        let unreadable = try errors("skip-installed: { read: ota, installed: ota.text == image.version }",
                                    profile: telink, images: [telinkImage])
        XCTAssertEqual(unreadable.count, 1)
        XCTAssertTrue(unreadable[0].hasPrefix("line.yaml:1:25: error: characteristic 'ota' of profile 'telink-ota' cannot be read"),
                      unreadable[0])
        let notACondition = try errors("skip-installed: { read: firmware_revision, installed: firmware_revision.text }",
                                       profile: telink, images: [telinkImage])
        XCTAssertEqual(notACondition.count, 1)
        XCTAssertTrue(notACondition[0].contains("is text, not a condition"), notACondition[0])
    }

    func testSkipInstalledNeverRunsACommandThatRebootsTheDevice() throws {
        let found = try errors("skip-installed: { exec: activate, installed: true }")
        XCTAssertEqual(found, ["line.yaml:1:25: error: command 'activate' of profile 'vendor-ctrlpt' reboots the device: "
                               + "skip-installed only asks (use a command that reports what runs, such as info or image_list)"])
    }

    func testTheLoaderRefusesAMalformedSkipInstalled() {
        XCTAssertThrowsError(try LineFileLoader.load(text: "skip-installed: { exec: info, read: x, installed: true }",
                                                     path: "line.yaml")) { error in
            XCTAssertTrue("\(error)".contains("either 'exec' (a command) or 'read' (a characteristic), not both"), "\(error)")
        }
        XCTAssertThrowsError(try LineFileLoader.load(text: "skip-installed: { exec: info, instaled: true }",
                                                     path: "line.yaml")) { error in
            XCTAssertTrue("\(error)".contains("line.yaml:1:31: error: unknown key 'instaled' in 'skip-installed'; did you mean 'installed'?"),
                          "\(error)")
        }
    }
}
