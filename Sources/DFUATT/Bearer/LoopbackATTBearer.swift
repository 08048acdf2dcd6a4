import DFUGATT

/// One end of an in-memory ATT bearer pair: what one end sends, the other receives, in order.
/// For tests and for an in-process ATT server (like Bumble's `LocalLink`).
///
/// ```swift
/// let (central, peripheral) = LoopbackATTBearer.makePair(mtu: 247)
/// ```
package final class LoopbackATTBearer: ATTBearer {
    package let mtu: Int
    private let wire: LoopbackWire
    private let side: Int

    private init(wire: LoopbackWire, side: Int, mtu: Int) {
        self.wire = wire
        self.side = side
        self.mtu = mtu
    }

    /// Two connected ends; each can carry PDUs of up to `mtu` bytes.
    package static func makePair(mtu: Int = 23) -> (central: LoopbackATTBearer, peripheral: LoopbackATTBearer) {
        let wire = LoopbackWire()
        return (LoopbackATTBearer(wire: wire, side: 0, mtu: mtu), LoopbackATTBearer(wire: wire, side: 1, mtu: mtu))
    }

    package func send(_ pdu: [UInt8]) async throws(GATTError) {
        guard !pdu.isEmpty, pdu.count <= mtu else {
            throw GATTError(.unsupported, detail: "loopback bearer: a PDU of \(pdu.count) bytes does not fit ATT_MTU \(mtu)")
        }
        try await wire.deliver(pdu, to: 1 - side).get()
    }

    package func receive() async throws(GATTError) -> [UInt8] {
        try await wire.receive(side: side).get()
    }

    package func close() async {
        await wire.close()
    }

    /// PDUs sent to this end that it has not received yet.
    package func queuedCount() async -> Int {
        await wire.queuedCount(side: side)
    }

    /// Whether the pair was closed (by either end).
    package func isClosed() async -> Bool {
        await wire.isClosed
    }
}

/// The shared state of a loopback pair: one inbox per end.
private actor LoopbackWire {
    private var inboxes: [[[UInt8]]] = [[], []]
    private var receivers: [CheckedContinuation<Result<[UInt8], GATTError>, Never>?] = [nil, nil]
    private(set) var isClosed = false

    private static let closedError = GATTError(.disconnected, detail: "loopback bearer closed")

    func deliver(_ pdu: [UInt8], to side: Int) -> Result<Void, GATTError> {
        guard !isClosed else { return .failure(Self.closedError) }
        if let receiver = receivers[side] {
            receivers[side] = nil
            receiver.resume(returning: .success(pdu))
        } else {
            inboxes[side].append(pdu)
        }
        return .success(())
    }

    func receive(side: Int) async -> Result<[UInt8], GATTError> {
        if !inboxes[side].isEmpty { return .success(inboxes[side].removeFirst()) }
        if isClosed { return .failure(Self.closedError) }
        guard receivers[side] == nil else {
            return .failure(GATTError(.unsupported, detail: "loopback bearer: receive() called by two tasks at once"))
        }
        return await withCheckedContinuation { continuation in
            receivers[side] = continuation
        }
    }

    func queuedCount(side: Int) -> Int { inboxes[side].count }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        for side in 0..<2 {
            receivers[side]?.resume(returning: .failure(Self.closedError))
            receivers[side] = nil
        }
    }
}
