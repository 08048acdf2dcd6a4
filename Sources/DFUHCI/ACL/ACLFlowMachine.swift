/// The host's side of ACL flow control (Core spec Vol 4, Part E, 4.1.1) as a pure state
/// machine: per connection, one frame's fragments at a time (a turn, FIFO); across all
/// connections, at most as many packets in the controller as it has LE ACL buffers (credits,
/// handed out FIFO to waiting senders), credits back on Number Of Completed Packets and when a
/// connection ends. No tasks, no clock: `HCIHost` drives it and runs its actions.
package struct ACLFlowMachine: Sendable {
    /// Names one frame being sent; chosen by the driver, unique per host.
    package typealias Sender = UInt64

    /// The credit accounting itself.
    package private(set) var flow: ACLFlowControl
    /// Send turns by connection ID: the holder, then the waiting senders in order.
    private var turns: [UInt64: [Sender]] = [:]
    /// Senders waiting for a credit, oldest first.
    private var creditQueue: [(sender: Sender, handle: UInt16)] = []

    /// `capacity`: Total_Num_LE_ACL_Data_Packets (or the shared ACL buffers when LE has none).
    package init(capacity: Int) {
        flow = ACLFlowControl(capacity: capacity)
    }

    /// Credits the host holds now.
    package var availableCredits: Int { flow.available }
    /// Senders waiting for a credit.
    package var creditWaitCount: Int { creditQueue.count }

    package mutating func handle(_ event: ACLFlowEvent) -> [ACLFlowAction] {
        switch event {
        case let .frameStarted(sender, connection):
            turns[connection, default: []].append(sender)
            return turns[connection]!.count == 1 ? [.grantTurn(sender)] : []
        case let .frameFinished(sender, connection):
            guard let queue = turns[connection], queue.first == sender else { return [] }
            let rest = Array(queue.dropFirst())
            turns[connection] = rest.isEmpty ? nil : rest
            return rest.first.map { [.grantTurn($0)] } ?? []
        case let .creditRequested(sender, handle):
            if creditQueue.isEmpty, flow.consume(on: handle) { return [.grantCredit(sender)] }
            creditQueue.append((sender, handle))
            return [.startCreditTimer(sender)]
        case let .creditTimedOut(sender):
            guard let index = creditQueue.firstIndex(where: { $0.sender == sender }) else { return [] }
            let waiter = creditQueue.remove(at: index)
            return [.refuseCredit(sender, handle: waiter.handle, timedOut: true)]
        case let .creditUnused(handle):
            flow.complete(1, on: handle)
            return grantCredits()
        case let .packetsCompleted(handle, count):
            flow.complete(count, on: handle)
            return grantCredits()
        case let .connectionClosed(handle, connection):
            flow.connectionClosed(handle)
            let waitingTurns = turns.removeValue(forKey: connection)?.dropFirst() ?? []
            let gone = creditQueue.filter { $0.handle == handle }
            creditQueue.removeAll { $0.handle == handle }
            return waitingTurns.map { .refuseTurn($0) }
                + gone.flatMap { [.cancelCreditTimer($0.sender), .refuseCredit($0.sender, handle: handle, timedOut: false)] }
                + grantCredits()
        case .hostClosed:
            let waitingTurns = turns.values.flatMap { $0.dropFirst() }
            let gone = creditQueue
            turns = [:]
            creditQueue = []
            return waitingTurns.sorted().map { .refuseTurn($0) }
                + gone.flatMap { [.cancelCreditTimer($0.sender), .refuseCredit($0.sender, handle: $0.handle, timedOut: false)] }
        }
    }

    /// Hands free credits to waiting senders in order, until the first that cannot have one.
    private mutating func grantCredits() -> [ACLFlowAction] {
        var actions: [ACLFlowAction] = []
        while let first = creditQueue.first, flow.consume(on: first.handle) {
            creditQueue.removeFirst()
            actions += [.cancelCreditTimer(first.sender), .grantCredit(first.sender)]
        }
        return actions
    }
}
