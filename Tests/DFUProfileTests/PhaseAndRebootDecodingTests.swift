import DFUProfile
import XCTest

/// `phase` steps, `reboots` on commands and sends, and the profile's `reboot` timing.
final class PhaseAndRebootDecodingTests: XCTestCase {
    private static let base = """
        profile: phases
        reboot: { grace: 500ms, boot-timeout: 90s }
        characteristics:
          control: { service: FE59, uuid: 8EC90001-F315-4F60-9FB8-838830DAEA50, properties: [write, notify] }
        commands:
          state:
            characteristic: control
            request: [{ type: u8, value: 0x01 }]
            response:
              fields: [{ type: u8, value: 0x81 }, { name: stage, type: u8 }]
          reset:
            characteristic: control
            reboots: true
            request: [{ type: u8, value: 0x02 }]
          execute:
            characteristic: control
            reboots: { when: "state.stage == 3", boot-timeout: 2m, address: next }
            request: [{ type: u8, value: 0x03 }]
        procedure:
          - send: state
          - phase: upload
            done: state.stage >= 1
            achieves: received
            steps:
              - send: execute
          - phase: activate
            achieves: installed
            resumable: false
            repeatable: true
            steps:
              - send: execute
                reboots: false
              - send: reset
                reboots: { grace: 1s }
              - check: state.stage == 4
                holds: [unchanged, received]
        """

    func testPhasesAndRebootsDecode() throws {
        let profile = try ProfileLoader.load(text: Self.base, path: "phases.yaml")
        XCTAssertEqual(profile.reboot, RebootTiming(grace: .milliseconds(500), bootTimeout: .seconds(90)))
        XCTAssertNotNil(profile.commands["reset"]?.reboots)
        XCTAssertNil(profile.commands["reset"]?.reboots?.when)
        let execute = try XCTUnwrap(profile.commands["execute"]?.reboots)
        XCTAssertEqual(execute.when?.text, "state.stage == 3")
        XCTAssertEqual(execute.bootTimeout, .seconds(120))
        XCTAssertEqual(execute.address, .next)
        XCTAssertEqual(execute.timing(over: profile.reboot), RebootTiming(grace: .milliseconds(500), bootTimeout: .seconds(120)))
        guard case let .phase(upload) = profile.procedure[1].kind, case let .phase(activate) = profile.procedure[2].kind else {
            return XCTFail("expected two phases")
        }
        XCTAssertEqual(upload.name, "upload")
        XCTAssertEqual(upload.done?.text, "state.stage >= 1")
        XCTAssertEqual(upload.achieves, .received)
        XCTAssertTrue(upload.resumable)
        XCTAssertFalse(upload.repeatable)
        XCTAssertEqual(activate.achieves, .installed)
        XCTAssertFalse(activate.resumable)
        XCTAssertTrue(activate.repeatable)
        guard case let .send(noReboot) = activate.steps[0].kind, case let .send(reset) = activate.steps[1].kind else {
            return XCTFail("expected two sends")
        }
        XCTAssertNil(noReboot.reboots, "reboots: false on a step")
        XCTAssertEqual(reset.reboots?.grace, .seconds(1))
        guard case let .check(_, _, holds, _) = activate.steps[2].kind else { return XCTFail("expected a check") }
        XCTAssertEqual(holds, [.unchanged, .received])
    }

    /// An in-place update (Silicon Labs' AppLoader) writes over the running firmware: a stage of
    /// its own, between `unchanged` and `received`.
    func testOverwrittenStageDecodesAndSitsBetweenUnchangedAndReceived() throws {
        let text = Self.base.replacingOccurrences(of: "achieves: received", with: "achieves: overwritten")
            .replacingOccurrences(of: "holds: [unchanged, received]", with: "holds: [overwritten]")
        let profile = try ProfileLoader.load(text: text, path: "phases.yaml")
        guard case let .phase(upload) = profile.procedure[1].kind, case let .phase(activate) = profile.procedure[2].kind,
              case let .check(_, _, holds, _) = activate.steps[2].kind else {
            return XCTFail("expected two phases and a check")
        }
        XCTAssertEqual(upload.achieves, .overwritten)
        XCTAssertEqual(holds, [.overwritten])
        XCTAssertEqual(FirmwareStage.allCases, [.unchanged, .overwritten, .received, .pending, .unconfirmed, .installed])
        XCTAssertTrue(FirmwareStage.unchanged < .overwritten && FirmwareStage.overwritten < .received)
        XCTAssertEqual(FirmwareStage.overwritten.summary, "no longer has its previous firmware, which is partly "
            + "overwritten: it stays in its bootloader until a whole image is written")
    }

    func testDefaultsWithoutARebootSection() throws {
        let text = Self.base.replacingOccurrences(of: "reboot: { grace: 500ms, boot-timeout: 90s }\n", with: "")
        XCTAssertEqual(try ProfileLoader.load(text: text, path: "phases.yaml").reboot, RebootTiming())
        XCTAssertEqual(RebootTiming(), RebootTiming(grace: .seconds(2), bootTimeout: .seconds(30)))
    }

    func testMistakesAreReportedAtTheirPlace() {
        // (original text, replacement, expected error, the text at the error's line and which occurrence)
        let cases: [(String, String, String, String, Int)] = [
            ("achieves: received", "achieves: done", "'achieves' of phase 'upload' must be one of unchanged, overwritten, received, pending, unconfirmed, installed", "achieves: done", 1),
            ("reboots: true", "reboots: maybe", "'reboots' of command 'reset' must be true or false", "reboots: maybe", 1),
            ("boot-timeout: 2m, address: next", "boot-timeout: 2m, address: far", "'address' of 'reboots' of command 'execute' must be one of same, next", "address: far", 1),
            ("reboot: { grace: 500ms, boot-timeout: 90s }", "reboot: { grace: 500ms, boot: 90s }", "unknown key 'boot' in 'reboot'", "boot: 90s", 1),
            ("  - phase: activate", "  - phase: upload", "a second phase named 'upload'", "phase: upload", 2),
            ("    done: state.stage >= 1", "    done: stat.stage >= 1", "unknown name 'stat' in expression; did you mean 'state'?", "stat.stage", 1),
            ("holds: [unchanged, received]", "holds: [unchanged, kept]", "'holds' must be one of unchanged, overwritten, received, pending, unconfirmed, installed", "kept]", 1),
        ]
        for (original, replacement, expected, needle, occurrence) in cases {
            let text = Self.base.replacingOccurrences(of: original, with: replacement)
            let errors = loadErrors(text)
            XCTAssertTrue(errors.contains { $0.contains(expected) }, "\(replacement): \(errors)")
            let place = position(of: needle, in: text, occurrence: occurrence)
            XCTAssertTrue(errors.contains { $0.hasPrefix("mini.yaml:\(place.line):") }, "\(replacement) at line \(place.line): \(errors)")
        }
    }

    func testPhasesDoNotNest() {
        let text = Self.base.replacingOccurrences(of: """
              - send: execute
          - phase: activate
        """, with: """
              - send: execute
              - phase: inner
                steps:
                  - send: reset
          - phase: activate
        """)
        let errors = loadErrors(text)
        XCTAssertTrue(errors.contains { $0.contains("phase 'inner' is inside another phase") }, "\(errors)")
    }
}
