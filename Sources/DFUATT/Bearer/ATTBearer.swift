import DFUGATT

/// A channel that carries whole ATT PDUs between this device (the ATT client) and one peer:
/// the LE fixed channel 0x0004 of the userspace HCI host, a BlueZ L2CAP socket, or a
/// `LoopbackATTBearer` in tests. One PDU in, one PDU out: the bearer does the segmenting and
/// reassembly below ATT.
///
/// Contract: `receive()` is called by one task at a time (the `ATTClient`'s reader);
/// `send(_:)` may be called from several tasks and must keep each caller's PDUs in order.
public protocol ATTBearer: AnyObject, Sendable {
    /// The largest ATT PDU this bearer can carry in each direction: the ATT_MTU the client
    /// proposes in its Exchange MTU Request (at least 23).
    var mtu: Int { get }

    /// Queues one PDU (opcode first) for the peer. Throws `.disconnected` once the bearer is
    /// closed or the link is gone.
    func send(_ pdu: [UInt8]) async throws(GATTError)

    /// The next PDU from the peer, in arrival order. Throws `.disconnected` once the bearer is
    /// closed or the link is gone (after every PDU that arrived before that was delivered).
    func receive() async throws(GATTError) -> [UInt8]

    /// Closes the bearer (the transport may drop the link with it). Pending and later
    /// `receive()` calls throw `.disconnected`. Idempotent.
    func close() async

    /// Returns once the PDUs sent so far went out on air (the controller reported them
    /// completed), so that a link's writes without response can be counted when carried.
    /// Bearers that cannot tell return at once (the default).
    func sent() async throws(GATTError)
}

extension ATTBearer {
    /// The default: the bearer cannot tell when its PDUs went out.
    public func sent() async throws(GATTError) {}
}
