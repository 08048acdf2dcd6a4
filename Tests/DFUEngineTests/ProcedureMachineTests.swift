@testable import DFUEngine
import DFUProfile
import XCTest

/// `ProcedureMachine` over small inline procedures, with the driver's part played by a closure
/// that answers each `send`.
final class ProcedureMachineTests: XCTestCase {
    private let data: [UInt8] = Array("1234567890".utf8)

    private var scope: Scope {
        Scope(["image": InlineProfiles.imageRecord(data, crc32: 0x261D_AEE5, sha256: []),
               "link": .record(["mtu": .integer(23)])])
    }

    private struct Run {
        var log: [String] = []
        var machine: ProcedureMachine
        var failure: ProcedureFailure?
        /// `completedOffset` after each outcome.
        var progress: [Int?] = []
    }

    /// Runs `procedure`; `answer` gives the outcome of each send (by command name and the
    /// machine's scope at that moment). Other actions succeed.
    private func run(_ procedure: String, limit: Int = 50,
                     answer: (String, Scope) -> ProcedureMachine.Outcome = { _, _ in .sent(fields: [:]) }) throws -> Run {
        let profile = try InlineProfiles.profile(procedure: procedure)
        var run = Run(machine: ProcedureMachine(procedure: profile.procedure, scope: scope))
        var action = run.machine.start()
        for _ in 0..<limit {
            var outcome: ProcedureMachine.Outcome
            switch action {
            case let .send(step, _):
                run.log.append("send \(step.command)")
                outcome = answer(step.command, run.machine.scope)
            case let .stream(step, _):
                run.log.append("stream to \(step.to)")
                outcome = .streamed(lastReceipt: ["offset": .integer(10), "crc": .integer(0x261D_AEE5)])
            case let .reconnect(step):
                run.log.append("reconnect \(step.address.rawValue)")
                outcome = .reconnected
            case let .wait(duration):
                run.log.append("wait \(duration)")
                outcome = .waited
            case let .windowed(loop, _):
                run.log.append("windowed \(loop.alias)")
                outcome = answer("windowed " + loop.alias, run.machine.scope)
                if case let .sent(fields) = outcome { outcome = .windowed(lastFields: fields) }
            case let .await(step, _):
                run.log.append("await \(step.notification)")
                if case let .sent(fields) = answer("await " + step.notification, run.machine.scope) {
                    outcome = .received(name: step.notification, fields: fields)
                } else {
                    outcome = .received(name: step.notification, fields: [:])
                }
            case let .read(step, _):
                run.log.append("read \(step.characteristic)")
                outcome = .read(value: [])
            case .finished:
                run.log.append("finished")
                return run
            case let .failed(failure):
                run.log.append("failed")
                run.failure = failure
                return run
            }
            action = run.machine.resume(outcome)
            run.progress.append(run.machine.completedOffset)
        }
        XCTFail("the procedure did not end within \(limit) actions: \(run.log)")
        return run
    }

    private func value(_ number: UInt64) -> ProcedureMachine.Outcome { .sent(fields: ["value": .integer(number)]) }

    /// Answers `get` with the given values in turn (the last one repeats).
    private func gets(_ values: [UInt64]) -> (String, Scope) -> ProcedureMachine.Outcome {
        var remaining = values
        return { command, _ in
            guard command == "get" else { return .sent(fields: [:]) }
            let next = remaining.count > 1 ? remaining.removeFirst() : remaining[0]
            return .sent(fields: ["value": .integer(next)])
        }
    }

    // MARK: - Branches and variables

    private let branching = """
      - send: get
      - if: get.value > 10
        then:
          - send: big
        else:
          - send: small
      - send: done

    """

    func testIfTakesThenOrElse() throws {
        XCTAssertEqual(try run(branching, answer: gets([11])).log, ["send get", "send big", "send done", "finished"])
        XCTAssertEqual(try run(branching, answer: gets([10])).log, ["send get", "send small", "send done", "finished"])
    }

    func testIfWithoutElseAndNested() throws {
        let procedure = """
          - send: get
          - if: get.value >= 1
            then:
              - if: get.value == 2
                then:
                  - send: big
              - send: small
          - send: done

        """
        XCTAssertEqual(try run(procedure, answer: gets([0])).log, ["send get", "send done", "finished"])
        XCTAssertEqual(try run(procedure, answer: gets([1])).log, ["send get", "send small", "send done", "finished"])
        XCTAssertEqual(try run(procedure, answer: gets([2])).log, ["send get", "send big", "send small", "send done", "finished"])
    }

    func testSetBindsInOrderAndLaterStepsSeeIt() throws {
        let procedure = """
          - set: { a: 2, b: a * 3 }
          - if: b == 6
            then:
              - set: { c: b + 1, a: 10 }
          - check: c == 7 && a == 10

        """
        let result = try run(procedure)
        XCTAssertEqual(result.log, ["finished"])
        XCTAssertEqual(result.machine.scope["b"], .integer(6))
        XCTAssertEqual(result.machine.scope["c"], .integer(7))
        XCTAssertEqual(result.machine.scope["a"], .integer(10))
    }

    func testSendBindsTheResponseUnderItsAlias() throws {
        let procedure = """
          - send: get
            as: first
          - send: get
          - check: first.value == 4 && get.value == 5

        """
        XCTAssertEqual(try run(procedure, answer: gets([4, 5])).log, ["send get", "send get", "finished"])
    }

    // MARK: - Chunk loops

    func testChunkLoopVariablesFromAnOffsetWithAPartialLastChunk() throws {
        let procedure = """
          - set: { start: 2 }
          - chunks:
              data: image.data
              from: start
              size: 3
              as: piece
              steps:
                - send: get

        """
        var pieces: [Value] = []
        let result = try run(procedure) { _, scope in
            pieces.append(scope["piece"] ?? .boolean(false))
            return .sent(fields: ["value": .integer(0)])
        }
        XCTAssertEqual(result.log, ["send get", "send get", "send get", "finished"])
        func piece(_ offset: UInt64, _ end: UInt64, _ bytes: String, _ index: UInt64, first: Bool, last: Bool) -> Value {
            .record(["offset": .integer(offset), "from": .integer(offset), "end": .integer(end), "size": .integer(end - offset),
                     "data": .bytes(Array(bytes.utf8)), "index": .integer(index), "first": .boolean(first),
                     "last": .boolean(last)])
        }
        XCTAssertEqual(pieces, [
            piece(2, 5, "345", 0, first: true, last: false),
            piece(5, 8, "678", 1, first: false, last: false),
            piece(8, 10, "90", 2, first: false, last: true),
        ])
        XCTAssertEqual(result.progress, [5, 8, 10])
        XCTAssertEqual(result.machine.completedOffset, 10)
    }

    func testChunkLoopWholeImageWithDefaultAlias() throws {
        let procedure = """
          - chunks:
              data: image.data
              size: 4
              steps:
                - check: chunk.first == (chunk.index == 0) && chunk.last == (chunk.end == image.size)
                - send: get

        """
        var offsets: [Value?] = []
        let result = try run(procedure) { _, scope in
            offsets.append(scope.lookup(["chunk", "offset"]))
            return .sent(fields: [:])
        }
        XCTAssertEqual(result.log, ["send get", "send get", "send get", "finished"])
        XCTAssertEqual(offsets, [.integer(0), .integer(4), .integer(8)])
        XCTAssertEqual(result.progress, [4, 8, 10])
    }

    func testChunkLoopFromTheEndDoesNothingButReportsDone() throws {
        let procedure = """
          - chunks:
              data: image.data
              from: image.size
              size: 4
              steps:
                - send: get
          - send: done

        """
        let result = try run(procedure)
        XCTAssertEqual(result.log, ["send done", "finished"])
        XCTAssertEqual(result.machine.completedOffset, 10)
    }

    func testChunkLoopWithoutProgressDoesNotReportIt() throws {
        let procedure = """
          - chunks:
              data: image.data
              size: 4
              progress: false
              steps:
                - send: get

        """
        let result = try run(procedure)
        XCTAssertEqual(result.log, ["send get", "send get", "send get", "finished"])
        XCTAssertEqual(result.progress, [nil, nil, nil])
    }

    func testChunkSizeZeroIsAnEvaluationError() throws {
        let procedure = """
          - set: { n: 0 }
          - chunks:
              data: image.data
              size: n
              steps:
                - send: get

        """
        let result = try run(procedure)
        XCTAssertEqual(result.log, ["failed"])
        guard case let .evaluation(error)? = result.failure?.failure else {
            return XCTFail("expected an evaluation error, got \(String(describing: result.failure))")
        }
        XCTAssertEqual(error.message, "the chunk size is 0")
        XCTAssertEqual(result.failure?.step, "chunks")
    }

    func testFailureInsideAChunkNamesTheChunkOffset() throws {
        let procedure = """
          - chunks:
              data: image.data
              from: 2
              size: 3
              steps:
                - send: get
                  expect: [get.value == 1]

        """
        let result = try run(procedure, answer: gets([1, 0]))
        XCTAssertEqual(result.log, ["send get", "send get", "failed"])
        XCTAssertEqual(result.failure?.chunkOffset, 5)
        XCTAssertEqual(result.failure?.step, "send 'get'")
    }

    // MARK: - Retry blocks

    private let retried = """
      - retry:
          attempts: 3
          steps:
            - send: get
              expect:
                - get.value == 1
      - send: done

    """

    func testRetryRunsTheBlockAgainAfterAFailedExpect() throws {
        let result = try run(retried, answer: gets([0, 1]))
        XCTAssertEqual(result.log, ["send get", "send get", "send done", "finished"])
        XCTAssertEqual(result.machine.retryCount, 1)
    }

    func testRetryGivesUpAfterItsAttempts() throws {
        let result = try run(retried, answer: gets([0]))
        XCTAssertEqual(result.log, ["send get", "send get", "send get", "failed"])
        XCTAssertEqual(result.machine.retryCount, 2)
        let failure = try XCTUnwrap(result.failure)
        XCTAssertEqual(failure.step, "send 'get'")
        XCTAssertEqual(failure.location.line, InlineProfiles.fileLine(ofProcedureLine: 4), "the send step's line")
        XCTAssertNil(failure.chunkOffset)
        guard case let .expectationFailed(expression, location, values) = failure.failure else {
            return XCTFail("expected a failed expectation, got \(failure.failure)")
        }
        XCTAssertEqual(expression, "get.value == 1")
        XCTAssertEqual(location.line, InlineProfiles.fileLine(ofProcedureLine: 6))
        XCTAssertEqual(values, "get.value = 0")
    }

    func testRetryAlsoCoversTimeoutsAndDeviceErrors() throws {
        var attempt = 0
        let result = try run(retried) { command, _ in
            guard command == "get" else { return .sent(fields: [:]) }
            attempt += 1
            switch attempt {
            case 1: return .failed(.timeout(after: .seconds(5), attempts: 1, ignored: []))
            case 2: return .failed(.deviceStatus(DeviceStatus(code: 7, name: "busy")))
            default: return self.value(1)
            }
        }
        XCTAssertEqual(result.log, ["send get", "send get", "send get", "send done", "finished"])
        XCTAssertEqual(result.machine.retryCount, 2)
    }

    /// A status whose code the profile marks `retryable: false` is not asked again: the device
    /// gives the same answer however often it is asked.
    func testRetryDoesNotRunAgainAfterARefusalMarkedNotRetryable() throws {
        var final = DeviceStatus(code: 0x0B, name: "OTA_FW_SIZE_ERR")
        final.retryable = false
        let result = try run(retried) { command, _ in
            command == "get" ? .failed(.deviceStatus(final)) : .sent(fields: [:])
        }
        XCTAssertEqual(result.log, ["send get", "failed"])
        XCTAssertEqual(result.machine.retryCount, 0)
        XCTAssertEqual(result.failure?.failure, .deviceStatus(final))
    }

    func testRetryStartsAgainFromTheScopeItStartedWith() throws {
        let procedure = """
          - set: { n: 0 }
          - retry:
              attempts: 2
              steps:
                - set: { n: n + 1 }
                - send: get
                  expect: [get.value == 1]

        """
        var seen: [Value?] = []
        let result = try run(procedure) { _, scope in
            seen.append(scope["n"])
            return .sent(fields: ["value": .integer(0)])
        }
        XCTAssertEqual(result.log, ["send get", "send get", "failed"])
        XCTAssertEqual(seen, [.integer(1), .integer(1)])
    }

    func testNestedRetryMultipliesAttempts() throws {
        let procedure = """
          - retry:
              attempts: 2
              steps:
                - send: big
                - retry:
                    attempts: 2
                    steps:
                      - send: get
                        expect: [get.value == 1]
          - send: done

        """
        let failing = try run(procedure, answer: gets([0]))
        XCTAssertEqual(failing.log, ["send big", "send get", "send get", "send big", "send get", "send get", "failed"])
        XCTAssertEqual(failing.machine.retryCount, 3)
        let recovering = try run(procedure, answer: gets([0, 0, 1]))
        XCTAssertEqual(recovering.log, ["send big", "send get", "send get", "send big", "send get", "send done", "finished"])
    }

    func testRetryInsideAChunkLoopRetriesOnlyThatChunk() throws {
        let procedure = """
          - chunks:
              data: image.data
              size: 5
              steps:
                - retry:
                    attempts: 2
                    steps:
                      - send: get
                        expect: [get.value == chunk.end]

        """
        var offsets: [Value?] = []
        let result = try run(procedure) { _, scope in
            offsets.append(scope.lookup(["chunk", "offset"]))
            // The first try of each chunk answers 0, the second the right end.
            let end = scope.lookup(["chunk", "end"]) ?? .integer(0)
            return offsets.count % 2 == 1 ? self.value(0) : .sent(fields: ["value": end])
        }
        XCTAssertEqual(result.log, ["send get", "send get", "send get", "send get", "finished"])
        XCTAssertEqual(offsets, [.integer(0), .integer(0), .integer(5), .integer(5)])
        XCTAssertEqual(result.machine.retryCount, 2)
    }

    func testFailStepEndsTheProcedureEvenInsideRetry() throws {
        let procedure = """
          - retry:
              attempts: 3
              steps:
                - send: get
                - if: get.value == 0
                  then:
                    - fail: the device refused the update

        """
        let result = try run(procedure, answer: gets([0]))
        XCTAssertEqual(result.log, ["send get", "failed"])
        let failure = try XCTUnwrap(result.failure)
        XCTAssertEqual(failure.step, "fail")
        XCTAssertEqual(failure.location.line, InlineProfiles.fileLine(ofProcedureLine: 7))
        guard case let .expectationFailed(expression, _, values) = failure.failure else {
            return XCTFail("expected the fail message, got \(failure.failure)")
        }
        XCTAssertEqual(expression, "fail")
        XCTAssertEqual(values, "the device refused the update")
    }

    func testCheckFailsWithItsMessageAndIsRetried() throws {
        let procedure = """
          - retry:
              attempts: 2
              steps:
                - send: get
                - check: get.value == 1
                  message: the device is not ready

        """
        let result = try run(procedure, answer: gets([0]))
        XCTAssertEqual(result.log, ["send get", "send get", "failed"])
        let failure = try XCTUnwrap(result.failure)
        XCTAssertEqual(failure.step, "check")
        guard case let .expectationFailed(expression, _, values) = failure.failure else {
            return XCTFail("expected a failed check, got \(failure.failure)")
        }
        XCTAssertEqual(expression, "get.value == 1")
        XCTAssertEqual(values, "the device is not ready; get.value = 0")
    }

    func testEvaluationErrorsAreNotRetried() throws {
        let procedure = """
          - retry:
              attempts: 3
              steps:
                - send: get
                - set: { x: get.value - 1 }

        """
        let result = try run(procedure, answer: gets([0]))
        XCTAssertEqual(result.log, ["send get", "failed"])
        XCTAssertEqual(result.failure?.step, "set")
        guard case let .evaluation(error)? = result.failure?.failure else {
            return XCTFail("expected an evaluation error")
        }
        XCTAssertEqual(error.message, "0 - 1 would be negative")
        XCTAssertEqual(result.machine.retryCount, 0)
    }

    /// A condition over an answer of the wrong shape (a garbled answer) fails like an unmet
    /// one: a `retry` asks again.
    func testAConditionThatCannotBeEvaluatedOverAnAnswerIsRetried() throws {
        let procedure = """
          - retry:
              attempts: 2
              steps:
                - send: get
                - check: get.value

        """
        let result = try run(procedure, answer: gets([5]))
        XCTAssertEqual(result.log, ["send get", "send get", "failed"])
        XCTAssertEqual(result.machine.retryCount, 1)
        guard case let .expectationFailed(expression, _, values)? = result.failure?.failure else {
            return XCTFail("expected a failed expectation, got \(String(describing: result.failure))")
        }
        XCTAssertEqual(expression, "get.value")
        XCTAssertTrue(values.hasPrefix("cannot be evaluated: "), values)
    }

    // MARK: - Other steps

    func testStreamWaitAndReconnectAreHandedToTheDriver() throws {
        let procedure = """
          - stream:
              data: image.data
              to: packet
              receipts: { every: 2, notification: receipt, as: prn, expect: [prn.offset <= image.size] }
          - wait: 250ms
          - reconnect: { address: next }
          - check: prn.offset == 10 && prn.crc == image.crc32

        """
        let result = try run(procedure)
        XCTAssertEqual(result.log, ["stream to packet", "wait 0.25 seconds", "reconnect next", "finished"])
        XCTAssertTrue(result.machine.verified, "the check compared the receipt with image.crc32")
    }

    // MARK: - The verified flag

    private func verified(_ steps: String, crc: UInt64 = 0x261D_AEE5) throws -> (log: [String], verified: Bool) {
        let result = try run(steps) { command, _ in
            command == "verify" ? .sent(fields: ["crc": .integer(crc), "sha": .bytes([])]) : .sent(fields: [:])
        }
        return (result.log, result.machine.verified)
    }

    func testVerifiedOnlyByExpectsAndChecksOnImageChecksums() throws {
        let expectOnCRC = "  - send: verify\n    expect: [verify.crc == image.crc32]\n"
        XCTAssertEqual(try verified(expectOnCRC).verified, true)
        XCTAssertEqual(try verified(expectOnCRC).log, ["send verify", "finished"])

        let checkOnComputedCRC = "  - send: verify\n  - check: crc32(image.data) == verify.crc\n"
        XCTAssertEqual(try verified(checkOnComputedCRC).verified, true)

        let checkOnSHA = "  - send: verify\n  - check: verify.sha == image.sha256\n"
        XCTAssertEqual(try verified(checkOnSHA).verified, true)

        let expectOnOtherValue = "  - send: verify\n    expect: [verify.crc == 0x261DAEE5]\n"
        XCTAssertEqual(try verified(expectOnOtherValue).verified, false)

        let ifOnCRC = "  - send: verify\n  - if: verify.crc == image.crc32\n    then:\n      - send: done\n"
        let branch = try verified(ifOnCRC)
        XCTAssertEqual(branch.log, ["send verify", "send done", "finished"])
        XCTAssertEqual(branch.verified, false, "an `if` is not a verification")

        let noComparison = "  - send: verify\n"
        XCTAssertEqual(try verified(noComparison).verified, false)

        let checkOnCatalogueCRC = "  - send: verify\n  - check: crc('CRC-32/ISO-HDLC', image.data) == verify.crc\n"
        XCTAssertEqual(try verified(checkOnCatalogueCRC).verified, true, "any checksum function over image.data counts")

        let checkOnOtherBytes = "  - send: verify\n  - check: crc('CRC-32/ISO-HDLC', verify.sha) == 0\n"
        XCTAssertEqual(try verified(checkOnOtherBytes).verified, false, "a CRC of what the device sent is not the image's")

        let checkOverTheImageAlone = "  - send: verify\n  - check: crc('CRC-32/ISO-HDLC', image.data) == image.crc32\n"
        XCTAssertEqual(try verified(checkOverTheImageAlone).verified, false,
                       "a file's own checksum checked before sending confirms nothing about the device")

        let throughAVariable = "  - send: verify\n  - set: { got: verify.crc }\n  - check: got == image.crc32\n"
        XCTAssertEqual(try verified(throughAVariable).verified, true, "a variable holding the device's answer")

        let negated = "  - send: verify\n  - check: \"!(verify.crc == image.crc32 + 1)\"\n"
        XCTAssertEqual(try verified(negated).verified, false, "a negation says what the device does not hold")
    }

    /// `verifies: true` on a check: its holding verifies (a device that checked the image itself
    /// and reports only what it runs); its failing does not, and without the key nothing does.
    func testCheckThatVerifiesMarksTheUpdateVerifiedOnlyWhenItHolds() throws {
        let holds = "  - send: verify\n  - check: verify.crc == 0x261DAEE5\n    verifies: true\n"
        XCTAssertEqual(try verified(holds).verified, true)
        XCTAssertEqual(try verified(holds).log, ["send verify", "finished"])

        let fails = try verified(holds, crc: 7)
        XCTAssertEqual(fails.log, ["send verify", "failed"])
        XCTAssertEqual(fails.verified, false)

        let notVerifying = "  - send: verify\n  - check: verify.crc == 0x261DAEE5\n    verifies: false\n"
        XCTAssertEqual(try verified(notVerifying).verified, false)
    }

    func testFailedChecksumExpectDoesNotVerify() throws {
        let result = try verified("  - send: verify\n    expect: [verify.crc == image.crc32]\n", crc: 1)
        XCTAssertEqual(result.log, ["send verify", "failed"])
        XCTAssertEqual(result.verified, false)
    }

    /// `verifies: true`: the device's success answer is its own check against a checksum it was
    /// sent (SUOTA's end command), so the send verifies without a value to compare.
    func testASendThatVerifiesCountsOnceAnsweredWithSuccess() throws {
        XCTAssertEqual(try verified("  - send: verify\n    verifies: true\n").verified, true)
        XCTAssertEqual(try verified("  - send: verify\n    verifies: false\n").verified, false)

        let refused = try run("  - send: verify\n    verifies: true\n") { _, _ in
            .failed(.deviceStatus(DeviceStatus(code: 5)))
        }
        XCTAssertEqual(refused.log, ["send verify", "failed"])
        XCTAssertFalse(refused.machine.verified, "a refusal verifies nothing")

        let unmet = try verified("  - send: verify\n    verifies: true\n    expect: [verify.crc == 7]\n")
        XCTAssertEqual(unmet.log, ["send verify", "failed"])
        XCTAssertFalse(unmet.verified, "an answer that fails its expect verifies nothing")
    }
}

// MARK: - Language features the Nordic profiles use

extension ProcedureMachineTests {
    func testAlignedChunksStartInsideAChunkAndEndOnBoundaries() throws {
        let procedure = """
          - chunks:
              data: image.data
              from: 5
              size: 4
              aligned: true
              as: object
              steps:
                - set: { piece: object }
                - send: get
        """
        var pieces: [Value] = []
        let result = try run(procedure) { _, scope in
            pieces.append(scope["piece"] ?? .boolean(false))
            return .sent(fields: ["value": .integer(0)])
        }
        XCTAssertEqual(result.log, ["send get", "send get", "finished"])
        XCTAssertEqual(pieces, [
            .record(["offset": .integer(4), "from": .integer(5), "end": .integer(8), "size": .integer(4),
                     "data": .bytes(Array("5678".utf8)), "index": .integer(0), "first": .boolean(true),
                     "last": .boolean(false)]),
            .record(["offset": .integer(8), "from": .integer(8), "end": .integer(10), "size": .integer(2),
                     "data": .bytes(Array("90".utf8)), "index": .integer(1), "first": .boolean(false),
                     "last": .boolean(true)]),
        ])
        XCTAssertEqual(result.progress.compactMap { $0 }.last, 10)
    }

    func testRetryAttemptCountsTheRuns() throws {
        let procedure = """
          - retry:
              attempts: 3
              steps:
                - set: { seen: retry.attempt }
                - send: get
                  expect:
                    - get.value == 2
        """
        var attempts: [Value] = []
        let result = try run(procedure) { _, scope in
            attempts.append(scope["seen"] ?? .boolean(false))
            return .sent(fields: ["value": .integer(UInt64(attempts.count - 1))])
        }
        XCTAssertEqual(result.log, ["send get", "send get", "send get", "finished"])
        XCTAssertEqual(attempts, [.integer(0), .integer(1), .integer(2)])
        XCTAssertEqual(result.machine.retryCount, 2)
    }

    func testAwaitBindsTheNotificationAndChecksItsExpectations() throws {
        let procedure = """
          - await: receipt
            as: r
            expect:
              - r.offset == 7
          - check: r.crc == 1
        """
        let good = try run(procedure) { _, _ in .sent(fields: ["offset": .integer(7), "crc": .integer(1)]) }
        XCTAssertEqual(good.log, ["await receipt", "finished"])
        let bad = try run(procedure) { _, _ in .sent(fields: ["offset": .integer(8), "crc": .integer(1)]) }
        XCTAssertEqual(bad.log, ["await receipt", "failed"])
        XCTAssertEqual(bad.failure?.step, "await 'receipt'")
    }
}
