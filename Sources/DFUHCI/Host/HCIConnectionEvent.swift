import DFUGATT

/// What happens to the host's connections, as `HCIConnectionLifecycle` takes it.
package enum HCIConnectionEvent: Sendable, Hashable {
    /// `connect(to:)` was called for `peer`.
    case connectRequested(DeviceAddress)
    /// That call returned (connected, failed or cancelled).
    case connectAttemptEnded
    /// LE Connection Complete with success; `connection` is the host's ID for it.
    case connectionCompleted(handle: UInt16, connection: UInt64, peer: DeviceAddress, asCentral: Bool)
    /// Pairing starts on the connection.
    case encryptionStarted(handle: UInt16)
    /// Pairing ended: the link is encrypted, or not.
    case encryptionEnded(handle: UInt16, enabled: Bool)
    /// Disconnect is being sent.
    case disconnectRequested(handle: UInt16)
    /// Disconnection Complete (with its reason), or the host gave up on the link (disconnect
    /// unconfirmed: `.localHostTerminated`).
    case disconnected(handle: UInt16, reason: HCIStatus, HCIError)
    /// The controller is gone or closed: every connection ends with `error`.
    case hostClosed(HCIError)
}

/// What `HCIConnectionLifecycle` asks `HCIHost` to do, in the order given.
package enum HCIConnectionAction: Sendable, Hashable {
    /// Go on: LE Create Connection to the peer.
    case createConnection(DeviceAddress)
    /// Already connected to that peer: hand out that connection.
    case useExisting(handle: UInt16)
    /// The request is refused with this error.
    case refuse(HCIError)
    /// Set up the new connection's resources (ATT channel, reassembly).
    case open(handle: UInt16, connection: UInt64)
    /// Send Disconnect (a connection nobody asked for).
    case disconnect(handle: UInt16)
    /// Forget the connection: free its ACL buffers, tell its senders and readers `error`, report
    /// the disconnection with `reason`.
    case tearDown(handle: UInt16, reason: HCIStatus, HCIError)
}
