import DFUGATT

/// The life of the host's LE connections as a pure state machine: one connection attempt at a
/// time (the controller has one initiator), each connection from LE Connection Complete through
/// pairing and encryption to its end, and what a reused handle means. Events in, actions out;
/// `HCIHost` drives it and keeps each live connection's resources (its ATT channel, reassembler).
///
/// A controller hands a freed handle to the next connection, so the host names connections by an
/// ID of its own (`connection`): a sender that started on an earlier connection with the same
/// handle learns how that one ended (`endReason`), and never reaches the new one.
package struct HCIConnectionLifecycle: Sendable {
    package enum Phase: Sendable, Hashable {
        case connected
        /// Pairing and LE Enable Encryption under way.
        case encrypting
        case encrypted
        /// Disconnect sent, Disconnection Complete not yet seen.
        case disconnecting
    }

    /// One live connection as the machine knows it.
    package struct Connection: Sendable, Hashable {
        package var id: UInt64
        package var peer: DeviceAddress
        package var phase: Phase
    }

    /// The device a connection is being made to, if any.
    package internal(set) var attempt: DeviceAddress?
    package internal(set) var live: [UInt16: Connection] = [:]
    /// How each ended connection ended, until its handle is reused.
    var ended: [UInt16: HCIError] = [:]

    package init() {}

    /// Why the last connection on `handle` ended, while no other has that handle.
    package func endReason(_ handle: UInt16) -> HCIError? { ended[handle] }

    package func phase(_ handle: UInt16) -> Phase? { live[handle]?.phase }

    package mutating func handle(_ event: HCIConnectionEvent) -> [HCIConnectionAction] {
        switch event {
        case let .connectRequested(peer):
            if let attempt {
                return [.refuse(HCIError(.invalidState, detail: "a connection to \(attempt) is already being made; "
                                         + "connect to one device at a time"))]
            }
            if let (handle, _) = live.first(where: { $0.value.peer == peer }) { return [.useExisting(handle: handle)] }
            attempt = peer
            return [.createConnection(peer)]
        case .connectAttemptEnded:
            attempt = nil
            return []
        case let .connectionCompleted(handle, id, peer, asCentral):
            var actions: [HCIConnectionAction] = []
            if live[handle] != nil {
                // A controller that did not report the old connection's end: it is gone all the same.
                let replaced = HCIError(.disconnected(handle: handle, reason: .unknownConnectionIdentifier),
                                        detail: "the controller reported a new connection on this handle")
                actions += end(handle, reason: .unknownConnectionIdentifier, replaced)
            }
            ended[handle] = nil
            live[handle] = Connection(id: id, peer: peer, phase: .connected)
            actions.append(.open(handle: handle, connection: id))
            // Nobody asked for it (a cancelled attempt that completed late): close it.
            if attempt == nil, asCentral { actions.append(.disconnect(handle: handle)) }
            return actions
        case let .encryptionStarted(handle):
            guard let connection = live[handle] else { return [.refuse(endedError(handle))] }
            guard connection.phase == .connected else {
                return [.refuse(HCIError(.invalidState, detail: "connection 0x\(hexWord(handle)) is \(connection.phase), "
                                         + "not waiting to be encrypted"))]
            }
            live[handle]?.phase = .encrypting
            return []
        case let .encryptionEnded(handle, enabled):
            guard live[handle]?.phase == .encrypting else { return [] }
            live[handle]?.phase = enabled ? .encrypted : .connected
            return []
        case let .disconnectRequested(handle):
            live[handle]?.phase = .disconnecting
            return []
        case let .disconnected(handle, reason, error):
            return end(handle, reason: reason, error)
        case let .hostClosed(error):
            return live.keys.sorted().flatMap { end($0, reason: .localHostTerminated, error) }
        }
    }

    private mutating func end(_ handle: UInt16, reason: HCIStatus, _ error: HCIError) -> [HCIConnectionAction] {
        guard live.removeValue(forKey: handle) != nil else { return [] }
        ended[handle] = error
        return [.tearDown(handle: handle, reason: reason, error)]
    }

    private func endedError(_ handle: UInt16) -> HCIError {
        ended[handle] ?? HCIError(.disconnected(handle: handle, reason: .unknownConnectionIdentifier),
                                  detail: "no such connection")
    }
}
