import DFUBytes
import DFUCapture
import DFUGATT

/// What a captured client did on one connection, cut the way the replay compares it: whole
/// messages (a characteristic's framing joins the values that carry one), reads and
/// subscriptions; and for each, the device's answers that followed it, before the client's
/// next step was complete.
struct CapturedClientSteps {
    /// One thing the client did.
    struct Step {
        enum Kind {
            /// A whole message written to `handle`, with the values that carried it.
            case message(handle: UInt16, bytes: [UInt8], values: [(value: [UInt8], withResponse: Bool)])
            /// A read of `handle`.
            case read(handle: UInt16)
            /// Notifications or indications switched on or off.
            case subscribe(valueHandle: UInt16?, configuration: UInt16)
        }

        var kind: Kind
        /// Index of the operation that completed it.
        var lastOperation: Int
        /// When it was complete, from the capture's start.
        var time: Duration
        /// The device's operations after it, before the next step was complete (Write
        /// Responses left out: the replay acknowledges every write itself).
        var answers: [CapturedOperation] = []
        /// The device refused the step's last write (or read) with this ATT error.
        var refusal: (code: UInt8, handle: UInt16)?
        /// What a read returned.
        var readValue: [UInt8]?
    }

    var steps: [Step] = []
    /// Device operations before the client's first step (notifications on connect).
    var opening: [CapturedOperation] = []

    /// `framing(handle)` gives the framing of messages written to a handle (from the profile's
    /// characteristic at that handle), nil for one value per message.
    init(_ connection: CapturedConnection, framing: (UInt16) -> LengthHeaderFormat?) {
        var streams: [UInt16: MessageStream] = [:]
        var pendingValues: [UInt16: [(value: [UInt8], withResponse: Bool)]] = [:]
        var lastClientOperation: (index: Int, isLastValue: Bool)?
        for (index, operation) in connection.operations.enumerated() {
            switch operation.kind {
            case let .write(handle, value, withResponse):
                var stream = streams[handle] ?? MessageStream(framing: framing(handle))
                pendingValues[handle, default: []].append((value, withResponse))
                let messages = (try? stream.append(value).get()) ?? [(message: value, values: 1)]
                streams[handle] = stream
                for (message, _) in messages {
                    steps.append(Step(kind: .message(handle: handle, bytes: message, values: pendingValues[handle] ?? []),
                                      lastOperation: index, time: operation.time))
                    pendingValues[handle] = []
                }
                lastClientOperation = (index, !messages.isEmpty)
            case let .read(handle):
                steps.append(Step(kind: .read(handle: handle), lastOperation: index, time: operation.time))
                lastClientOperation = (index, true)
            case let .subscribe(_, valueHandle, configuration):
                steps.append(Step(kind: .subscribe(valueHandle: valueHandle, configuration: configuration),
                                  lastOperation: index, time: operation.time))
                lastClientOperation = (index, true)
            case .mtuExchange, .writeAcknowledged:
                continue
            case let .readValue(value):
                if let last = steps.indices.last, case .read = steps[last].kind, steps[last].readValue == nil {
                    steps[last].readValue = value
                } else {
                    attach(operation)
                }
            case let .attError(_, handle, code):
                // The answer to the request just before it, when that request ended a step.
                if let last = steps.indices.last, let client = lastClientOperation, client.isLastValue,
                   steps[last].lastOperation == client.index, steps[last].refusal == nil {
                    steps[last].refusal = (code, handle)
                } else {
                    attach(operation)
                }
            case .notification:
                attach(operation)
            }
        }
    }

    private mutating func attach(_ operation: CapturedOperation) {
        if steps.isEmpty { opening.append(operation) } else { steps[steps.count - 1].answers.append(operation) }
    }
}
