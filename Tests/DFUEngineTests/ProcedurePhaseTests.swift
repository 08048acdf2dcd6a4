@testable import DFUEngine
import DFUProfile
import XCTest

/// Phases in `ProcedureMachine`: a phase the device already completed is skipped, one completed
/// earlier in the update is never run again (unless repeatable), and the stage reached follows
/// the phases passed.
final class ProcedurePhaseTests: XCTestCase {
    private let data: [UInt8] = Array("1234567890".utf8)

    /// upload (done when `get.value >= 1`), test (>= 2), confirm (>= 3); the device's state is
    /// what `get` answers.
    private let phased = """
      - send: get
      - phase: upload
        done: get.value >= 1
        achieves: received
        steps:
          - send: big
      - phase: test
        done: get.value >= 2
        achieves: pending
        steps:
          - send: small
      - phase: confirm
        done: get.value >= 3
        achieves: installed
        steps:
          - send: done

    """

    private struct Run {
        var log: [String] = []
        var machine: ProcedureMachine
        var failure: ProcedureFailure?
    }

    private func run(_ procedure: String, state: UInt64, completed: Set<String> = []) throws -> Run {
        let profile = try InlineProfiles.profile(procedure: procedure)
        var run = Run(machine: ProcedureMachine(
            procedure: profile.procedure,
            scope: Scope(["image": InlineProfiles.imageRecord(data, crc32: 0x261D_AEE5, sha256: [])]),
            completedPhases: completed))
        var action = run.machine.start()
        for _ in 0..<20 {
            switch action {
            case let .send(step, _):
                run.log.append(step.command)
                action = run.machine.resume(.sent(fields: step.command == "get" ? ["value": .integer(state)] : ["value": .integer(0)]))
            case .finished:
                return run
            case let .failed(failure):
                run.failure = failure
                return run
            default:
                XCTFail("unexpected \(action)")
                return run
            }
        }
        XCTFail("no end")
        return run
    }

    private func names(_ events: [PhaseEvent]) -> [String] {
        events.map {
            switch $0 {
            case let .entered(phase): return "enter \(phase.name)"
            case let .completed(phase): return "done \(phase.name)"
            case let .alreadyDone(phase): return "skip \(phase.name)"
            case let .unproven(phase, holds): return "unproven \(phase.name) \(holds.map(\.rawValue))"
            }
        }
    }

    func testEveryPhaseRunsOnADeviceThatHasNone() throws {
        let run = try run(phased, state: 0)
        XCTAssertEqual(run.log, ["get", "big", "small", "done"])
        XCTAssertEqual(names(run.machine.phaseEvents),
                       ["enter upload", "done upload", "enter test", "done test", "enter confirm",
                        "unproven confirm [\"pending\", \"installed\"]"])
        // Nothing in 'confirm' showed the new image running: the device may still be pending.
        XCTAssertEqual(run.machine.stage, .pending)
        XCTAssertEqual(run.machine.completedPhases, ["upload", "test", "confirm"])
    }

    func testPhasesTheDeviceCompletedAreSkipped() throws {
        let run = try run(phased, state: 2)
        XCTAssertEqual(run.log, ["get", "done"], "upload and test are done on the device")
        XCTAssertEqual(names(run.machine.phaseEvents),
                       ["skip upload", "skip test", "enter confirm", "unproven confirm [\"pending\", \"installed\"]"])
        XCTAssertEqual(run.machine.stage, .pending)
    }

    func testStageIsThatOfTheLastPhasePassed() throws {
        let profile = try InlineProfiles.profile(procedure: phased)
        var machine = ProcedureMachine(procedure: profile.procedure, scope: Scope(), completedPhases: [])
        _ = machine.start()
        XCTAssertNil(machine.stage, "no phase passed yet")
        _ = machine.resume(.sent(fields: ["value": .integer(1)]))  // get: upload done, test entered
        XCTAssertEqual(machine.stage, .received)
        XCTAssertEqual(machine.currentPhase?.name, "test")
    }

    func testAPhaseCompletedEarlierIsNotRepeatedWhenTheDeviceLostIt() throws {
        // A resume: upload completed in the first run, but the device now shows nothing.
        let run = try run(phased, state: 0, completed: ["upload"])
        XCTAssertEqual(run.log, ["get"], "nothing is sent again")
        guard case let .phaseUndone(phase, done, values)? = run.failure?.failure else {
            return XCTFail("expected phaseUndone, got \(String(describing: run.failure))")
        }
        XCTAssertEqual(phase, "upload")
        XCTAssertEqual(done, "get.value >= 1")
        XCTAssertEqual(values, "get.value = 0")
        XCTAssertFalse(ExchangeFailure.phaseUndone(phase: "", done: "", values: "").isRetryable)
    }

    func testARepeatablePhaseRunsAgain() throws {
        let procedure = phased.replacingOccurrences(of: "  - phase: upload\n    done: get.value >= 1\n",
                                                    with: "  - phase: upload\n    done: get.value >= 1\n    repeatable: true\n")
        let run = try run(procedure, state: 0, completed: ["upload"])
        XCTAssertNil(run.failure)
        XCTAssertEqual(run.log, ["get", "big", "small", "done"])
    }

    func testAPhaseWithoutDoneRunsEachTimeItIsReachedTheFirstTime() throws {
        let procedure = """
          - phase: only
            steps:
              - send: small

        """
        XCTAssertEqual(try run(procedure, state: 0).log, ["small"])
        XCTAssertEqual(try run(procedure, state: 0, completed: ["only"]).failure.map { "\($0.failure)" }?.contains("phaseUndone"), true)
    }

    func testADoneConditionOverTheImageChecksumCountsAsVerified() throws {
        let procedure = """
          - send: get
          - phase: all
            done: get.value == image.crc32
            achieves: installed
            steps:
              - send: small

        """
        let profile = try InlineProfiles.profile(procedure: procedure)
        var machine = ProcedureMachine(procedure: profile.procedure,
                                       scope: Scope(["image": InlineProfiles.imageRecord(data, crc32: 7, sha256: [])]))
        _ = machine.start()
        guard case .finished = machine.resume(.sent(fields: ["value": .integer(7)])) else { return XCTFail("not finished") }
        XCTAssertTrue(machine.verified)
        XCTAssertEqual(machine.stage, .installed)
    }

    /// `verifies: true`: the device's success answer is its own check of the image (a GBL's CRC
    /// checked by the AppLoader); without it, or when the answer fails an `expect`, nothing is verified.
    func testASendThatVerifiesCountsOnlyWhenItSucceeds() throws {
        for (verifies, value, verified) in [(true, 1, true), (false, 1, false), (true, 2, false)] {
            let procedure = """
              - phase: end
                achieves: pending
                steps:
                  - send: get
                    verifies: \(verifies)
                    expect: get.value == 1

            """
            let run = try run(procedure, state: UInt64(value))
            XCTAssertEqual(run.machine.verified, verified, "verifies \(verifies), value \(value)")
            XCTAssertEqual(run.failure == nil, value == 1)
        }
    }
}
