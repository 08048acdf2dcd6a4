@testable import DFUEngine
import DFUProfile
import XCTest

/// The procedure shapes other protocols need, in `ProcedureMachine`: a transfer the device
/// drives (`serve`), waiting for the first of several notifications, and reading a
/// characteristic.
final class ProcedureShapeTests: XCTestCase {
    private static let profile = """
        profile: shapes
        characteristics:
          control: { service: FEED, uuid: F001, properties: [write, notify] }
          blocks: { service: FEED, uuid: F002, properties: [write-without-response] }
          revision: { service: 180A, uuid: 2A26, properties: [read] }
        notifications:
          block_request:
            characteristic: control
            fields: [{ type: u8, value: 0x81 }, { name: number, type: u16 }]
          transfer_done:
            characteristic: control
            fields: [{ type: u8, value: 0x82 }, { name: status, type: u8 }]
            status: { field: status, success: [0] }
        commands:
          start:
            characteristic: control
            request: [{ type: u8, value: 0x01 }]
        """

    /// Answers a served block: its number, then its bytes.
    private static let putBlock = """

          put_block:
            characteristic: blocks
            request: [{ type: u16, value: block.index }, { type: bytes, value: block.data }]
        """

    private func machine(_ procedure: String, data: [UInt8] = Array("0123456789".utf8)) throws -> ProcedureMachine {
        let commands = procedure.contains("put_block") ? Self.putBlock : ""
        let profile = try ProfileLoader.load(text: Self.profile + commands + "\nprocedure:\n" + procedure, path: "shapes.yaml")
        return ProcedureMachine(procedure: profile.procedure,
                                scope: Scope(["image": InlineProfiles.imageRecord(data, crc32: 0, sha256: [])]))
    }

    private static let serving = """
          - serve:
              request: block_request
              done: transfer_done
              block: block_request.number
              size: 4
              data: image.data
              steps:
                - send: put_block

        """

    func testServeAnswersTheBlocksTheDeviceAsksForUntilItIsDone() throws {
        var machine = try machine(Self.serving)
        var action = machine.start()
        var sent: [String] = []
        // The device asks for blocks 0, 2, 1, 2 again, then says it is done.
        for number in [0, 2, 1, 2] as [UInt64] {
            guard case let .await(wait, _) = action else { return XCTFail("expected a wait, got \(action)") }
            XCTAssertEqual(wait.notifications, ["block_request", "transfer_done"])
            action = machine.resume(.received(name: "block_request", fields: ["number": .integer(number)]))
            guard case .send = action, case let .record(block)? = machine.scope["block"],
                  case let .bytes(data)? = block["data"] else { return XCTFail("expected a send, got \(action)") }
            sent.append(String(decoding: data, as: UTF8.self))
            XCTAssertEqual(block["index"], .integer(number))
            action = machine.resume(.sent(fields: [:]))
        }
        XCTAssertEqual(sent, ["0123", "89", "4567", "89"])
        XCTAssertEqual(machine.completedOffset, 10, "progress: how far the blocks served reach")
        guard case .await = action else { return XCTFail("expected a wait") }
        guard case .finished = machine.resume(.received(name: "transfer_done", fields: ["status": .integer(0)])) else {
            return XCTFail("the done notification ends the loop")
        }
        XCTAssertEqual(machine.scope["awaited"], .string("transfer_done"))
    }

    func testABlockBeyondTheImageFailsNamingIt() throws {
        var machine = try machine(Self.serving)
        _ = machine.start()
        guard case let .failed(failure) = machine.resume(.received(name: "block_request", fields: ["number": .integer(3)])),
              case let .evaluation(error) = failure.failure else { return XCTFail("expected a failure") }
        XCTAssertEqual(error.message, "the device asked for block 3; the image has 3 of 4 bytes")
    }

    func testServeCanEndOnAConditionInstead() throws {
        let procedure = Self.serving.replacingOccurrences(of: "      done: transfer_done\n", with: "      until: block.last\n")
        var machine = try machine(procedure)
        var action = machine.start()
        for number in [0, 1, 2] as [UInt64] {
            guard case let .await(wait, _) = action else { return XCTFail("expected a wait, got \(action)") }
            XCTAssertEqual(wait.notifications, ["block_request"])
            _ = machine.resume(.received(name: "block_request", fields: ["number": .integer(number)]))
            action = machine.resume(.sent(fields: [:]))
        }
        guard case .finished = action else { return XCTFail("the last block ends the loop, got \(action)") }
    }

    func testAwaitTheFirstOfSeveralBindsItUnderItsNameAndSaysWhich() throws {
        var machine = try machine("""
              - await: [block_request, transfer_done]
              - if: awaited == 'transfer_done'
                then:
                  - send: start

            """)
        guard case let .await(wait, _) = machine.start() else { return XCTFail("expected a wait") }
        XCTAssertEqual(wait.notifications, ["block_request", "transfer_done"])
        guard case .send = machine.resume(.received(name: "transfer_done", fields: ["status": .integer(0)])) else {
            return XCTFail("the branch for transfer_done")
        }
        XCTAssertEqual(machine.scope["transfer_done"], .record(["status": .integer(0)]))
    }

    func testReadBindsTheValueItsTextAndChecksExpectations() throws {
        var machine = try machine("""
              - read: revision
                as: fw
                expect: [fw.text == image.version]

            """)
        guard case let .read(step, _) = machine.start() else { return XCTFail("expected a read") }
        XCTAssertEqual(step.characteristic, "revision")
        // "1.0.0" with the NUL terminator some devices send; the image record's version is "1.0.0".
        let action = machine.resume(.read(value: Array("1.0.0".utf8) + [0]))
        guard case .finished = action else {
            return XCTFail("expected the expectation to hold, got \(action)")
        }
        XCTAssertEqual(machine.scope["fw"], .record(["value": .bytes(Array("1.0.0".utf8) + [0]), "text": .string("1.0.0"),
                                                     "size": .integer(6)]))
    }
}
