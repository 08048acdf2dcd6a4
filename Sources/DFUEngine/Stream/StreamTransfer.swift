import DFUBytes
import DFUGATT
import DFUProfile

/// Raw bytes written to a characteristic in segment-size writes, as a pure state machine.
/// With receipts every N writes (Nordic's PRN), it stops after each N-th write until the
/// receipt notification arrives, binds it and checks the step's `expect` conditions.
public struct StreamTransfer {
    public struct Setup {
        public var data: [UInt8]
        public var from: Int
        public var segmentSize: Int
        public var characteristic: String
        public var writeType: GATTWriteType
        /// 0 turns receipts off.
        public var receiptEvery: Int
        public var receipt: MessageSpec?
        public var receiptAlias: String
        public var expect: [Expression]
        public var timeout: Duration
        public var scope: Scope
    }

    public enum Action: Equatable {
        case write([UInt8], characteristic: String, type: GATTWriteType)
        case awaitNotification(until: Duration)
        /// Every byte was written (and the last due receipt checked).
        case completed(lastReceipt: [String: Value]?)
        case failed(ExchangeFailureBox)
    }

    public typealias Event = LinkEvent

    private let setup: Setup
    /// Offset of the next byte to write.
    public private(set) var position: Int
    private var writesSinceReceipt = 0
    private var deadline: Duration = .zero
    private var lastReceipt: [String: Value]?
    private var ignored: [String] = []

    public init(_ setup: Setup) {
        self.setup = setup
        self.position = setup.from
    }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .begin:
            return writeNextOrComplete()
        case let .writeAccepted(now):
            writesSinceReceipt += 1
            if setup.receiptEvery > 0, writesSinceReceipt >= setup.receiptEvery, setup.receipt != nil {
                deadline = now + setup.timeout
                return .awaitNotification(until: deadline)
            }
            return writeNextOrComplete()
        case let .notification(characteristic, value, _):
            guard let receipt = setup.receipt, characteristic == receipt.characteristic,
                  writesSinceReceipt >= setup.receiptEvery, setup.receiptEvery > 0 else {
                return .awaitNotification(until: deadline)
            }
            return checkReceipt(value, spec: receipt)
        case .deadlinePassed:
            return .failed(ExchangeFailureBox(.timeout(after: setup.timeout, attempts: 1, ignored: ignored)))
        }
    }

    private mutating func writeNextOrComplete() -> Action {
        guard position < setup.data.count else { return .completed(lastReceipt: lastReceipt) }
        let end = min(position + setup.segmentSize, setup.data.count)
        let segment = Array(setup.data[position..<end])
        position = end
        return .write(segment, characteristic: setup.characteristic, type: setup.writeType)
    }

    private mutating func checkReceipt(_ value: [UInt8], spec: MessageSpec) -> Action {
        do {
            switch try MessageDecoder.decode(value, as: spec, in: setup.scope) {
            case let .mismatched(reason):
                if ignored.count < 5 { ignored.append("\(value.prefix(16).hexString) (\(reason))") }
                return .awaitNotification(until: deadline)
            case let .matched(fields):
                var scope = setup.scope
                scope[setup.receiptAlias] = .record(fields)
                scope["stream"] = .record(["offset": .integer(UInt64(position))])
                for condition in setup.expect where !(try ExpressionEvaluator.condition(condition, in: scope)) {
                    return .failed(ExchangeFailureBox(.expectationFailed(
                        expression: condition.text, location: condition.location,
                        values: "\(setup.receiptAlias) = \(fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))")))
                }
                lastReceipt = fields
                writesSinceReceipt = 0
                return writeNextOrComplete()
            }
        } catch {
            return .failed(ExchangeFailureBox(.evaluation(error)))
        }
    }
}
