import DFUBytes
import DFUGATT
import DFUProfile

/// Raw bytes written to a characteristic in segment-size writes, as a pure state machine
/// (`LinkMachine`). With receipts every N writes (Nordic's packet receipt notifications), it
/// stops after each N-th write until the receipt arrives, binds it and checks the step's
/// `expect` conditions.
///
/// The final write never waits for a receipt, even when it is also the N-th: Nordic's own
/// clients never do (the legacy SDK 11 bootloader answers "firmware received" there instead,
/// and SDK 15-17 may or may not notify), so the step after the stream reads whatever comes.
package struct StreamTransfer: LinkMachine {
    package struct Setup {
        package var data: [UInt8]
        package var from: Int
        package var segmentSize: Int
        package var target: WriteTarget
        /// 0 turns receipts off.
        package var receiptEvery: Int
        package var receipt: MessageSpec?
        /// The value handle receipts are notified from.
        package var receiptHandle: UInt16?
        package var receiptAlias: String
        package var expect: [Expression]
        package var timeout: Duration
        package var scope: Scope

        package init(data: [UInt8], from: Int, segmentSize: Int, target: WriteTarget, receiptEvery: Int,
                    receipt: MessageSpec?, receiptHandle: UInt16?, receiptAlias: String, expect: [Expression],
                    timeout: Duration, scope: Scope) {
            self.data = data
            self.from = from
            self.segmentSize = segmentSize
            self.target = target
            self.receiptEvery = receiptEvery
            self.receipt = receipt
            self.receiptHandle = receiptHandle
            self.receiptAlias = receiptAlias
            self.expect = expect
            self.timeout = timeout
            self.scope = scope
        }
    }

    /// The last receipt's fields, if any arrived.
    package typealias Action = LinkAction<[String: Value]?>

    private enum State {
        case ready
        /// `sinceReceipt` writes since the last receipt (or the start).
        case writing(sinceReceipt: Int)
        case awaitingReceipt(deadline: Duration)
        case finished
    }

    private let setup: Setup
    private var state = State.ready
    /// Offset of the next byte to write.
    package private(set) var position: Int
    private var lastReceipt: [String: Value]?
    private var ignored = IgnoredMessages()

    package init(_ setup: Setup) {
        self.setup = setup
        self.position = min(setup.from, setup.data.count)
    }

    package var transferred: Int? { position }
    package var resends: Int { 0 }
    package var resendDescription: String { "" }

    private var receiptsOn: Bool { setup.receiptEvery > 0 && setup.receipt != nil }

    package mutating func handle(_ event: LinkEvent) -> Action {
        switch (state, event) {
        case (.ready, .begin):
            return writeNext(sinceReceipt: 0)
        case let (.writing(sinceReceipt), .writeAccepted(now)):
            let written = sinceReceipt + 1
            guard position < setup.data.count else { return finish(.completed(lastReceipt)) }
            guard receiptsOn, written >= setup.receiptEvery else { return writeNext(sinceReceipt: written) }
            let deadline = now + setup.timeout
            state = .awaitingReceipt(deadline: deadline)
            return .awaitNotification(until: deadline)
        case let (.awaitingReceipt(deadline), .notification(handle, value, _)):
            guard handle == setup.receiptHandle, let receipt = setup.receipt else {
                return .awaitNotification(until: deadline)
            }
            return checkReceipt(value, spec: receipt, deadline: deadline)
        case (.awaitingReceipt, .deadlinePassed):
            return finish(.failed(.timeout(after: setup.timeout, attempts: 1, ignored: ignored.notes)))
        default:
            return finish(.failed(.evaluation(EvaluationError(
                expression: "stream", location: setup.receipt?.location ?? SourceLocation(file: "stream", line: 0, column: 0),
                message: "internal error: \(event) while \(state)"))))
        }
    }

    private mutating func writeNext(sinceReceipt: Int) -> Action {
        guard position < setup.data.count else { return finish(.completed(lastReceipt)) }
        let end = min(position + setup.segmentSize, setup.data.count)
        let segment = Array(setup.data[position..<end])
        position = end
        state = .writing(sinceReceipt: sinceReceipt)
        return .write(segment, to: setup.target)
    }

    private mutating func checkReceipt(_ value: [UInt8], spec: MessageSpec, deadline: Duration) -> Action {
        do {
            switch try MessageDecoder.decode(value, as: spec, in: setup.scope) {
            case let .mismatched(reason):
                ignored.remember("\(value.prefix(16).hexString) (\(reason))")
                return .awaitNotification(until: deadline)
            case let .matched(fields):
                var scope = setup.scope
                scope[setup.receiptAlias] = .record(fields)
                scope["stream"] = .record(["offset": .integer(UInt64(position))])
                for condition in setup.expect where !(try ExpressionEvaluator.condition(condition, in: scope)) {
                    let shown = fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
                    return finish(.failed(.expectationFailed(expression: condition.text, location: condition.location,
                                                            values: "\(setup.receiptAlias) = \(shown)")))
                }
                lastReceipt = fields
                return writeNext(sinceReceipt: 0)
            }
        } catch {
            return finish(.failed(.evaluation(error)))
        }
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .finished
        return action
    }
}
