import DFUGATT

/// The ATT fixed channel (L2CAP CID 0x0004) of one connection, as raw PDUs: what an ATT client
/// runs over. To adapt it to an `ATTBearer` with an incoming stream:
/// `AsyncStream(unfolding: { await channel.receive() })`, and map `HCIError` with `gattError`.
package final class HCIATTChannel: Sendable {
    package let host: HCIHost
    package let handle: UInt16
    package let peerAddress: DeviceAddress
    /// The connection this channel belongs to (its handle may later be reused by another).
    let connectionID: UInt64
    /// ATT PDUs from the peer; finished with why the link ended.
    let inbox: AsyncBuffer<[UInt8], HCIError>

    init(host: HCIHost, handle: UInt16, connection: UInt64, peerAddress: DeviceAddress) {
        self.host = host
        self.handle = handle
        self.connectionID = connection
        self.peerAddress = peerAddress
        self.inbox = AsyncBuffer()
    }

    /// Sends one ATT PDU (fragmented to the controller's buffer size; waits for ACL credits).
    package func send(_ pdu: [UInt8]) async throws(HCIError) {
        if let end = inbox.failure { throw end }  // why this link ended, even once its handle is reused
        try await host.sendL2CAP(pdu, channel: .att, handle: handle, connection: connectionID)
    }

    /// Returns once the controller reported every packet sent on this connection completed (on
    /// air), or after `timeout` (a controller that stops reporting), or when the link ends.
    package func waitUntilSent(timeout: Duration = .seconds(10)) async throws(HCIError) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while await host.packetsInController(on: handle) > 0, clock.now < deadline {
            if let end = inbox.failure { throw end }
            if Task.isCancelled { return }
            // Number Of Completed Packets arrives within a connection event or two.
            try? await Task.sleep(for: .milliseconds(1))
        }
        if let end = inbox.failure { throw end }
    }

    /// The next ATT PDU from the peer, or nil once the link is gone (or the task is cancelled).
    package func receive() async -> [UInt8]? {
        guard case let .element(pdu)? = try? await inbox.next(until: nil) else { return nil }
        return pdu
    }

    /// Why the link ended, once it has; nil while connected.
    package var disconnection: HCIError? { inbox.failure }

    /// Waits until the link ends and says why (`.disconnected(handle, reason)` or
    /// `.transportClosed`).
    package func waitUntilDisconnected() async -> HCIError {
        await inbox.waitForEnd() ?? HCIError(.transportClosed, detail: "the link ended")
    }

    package func disconnect(reason: HCIStatus = .remoteUserTerminated) async throws(HCIError) {
        try await host.disconnect(handle, reason: reason)
    }

    /// The connection's current parameters, PHY and data length, nil once it is gone.
    package var connection: HCIConnection? {
        get async { await host.connection(handle) }
    }
}
