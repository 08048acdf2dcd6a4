extension HCIHost {
    /// The phase of the live connection `handle` (connected, encrypting...), nil once it is gone.
    package func connectionPhase(_ handle: UInt16) -> HCIConnectionLifecycle.Phase? { lifecycle.phase(handle) }

    /// Feeds one event to the connection life cycle and carries out its actions on the live
    /// connections' resources; returns the actions, for the caller to act on the answers meant
    /// for it (`.createConnection`, `.useExisting`, `.refuse`). `opening` is the connection an
    /// `.open` sets up.
    @discardableResult
    func runLifecycle(_ event: HCIConnectionEvent, opening: HCIConnection? = nil) -> [HCIConnectionAction] {
        let actions = lifecycle.handle(event)
        for action in actions {
            switch action {
            case let .open(handle, id):
                guard let info = opening else { continue }
                connections[handle] = ConnectionState(
                    id: id, info: info,
                    channel: HCIATTChannel(host: self, handle: handle, connection: id, peerAddress: info.peerAddress))
            case let .disconnect(handle):
                Task { try? await self.disconnect(handle) }
            case let .tearDown(handle, reason, error):
                release(handle, reason: reason, error: error)
            case .createConnection, .useExisting, .refuse:
                break
            }
        }
        return actions
    }

    /// Frees what a connection that ended held: its queued ACL packets' credits, its senders and
    /// readers are told, its end is reported on `disconnections`.
    private func release(_ handle: UInt16, reason: HCIStatus, error: HCIError) {
        guard let state = connections.removeValue(forKey: handle) else { return }
        runACL(.connectionClosed(handle: handle, connection: state.id))
        state.channel.inbox.finish(throwing: error)
        state.securityInbox.finish(throwing: error)
        disconnectionsContinuation.yield(HCIDisconnection(handle: handle, peerAddress: state.info.peerAddress, reason: reason))
    }
}
