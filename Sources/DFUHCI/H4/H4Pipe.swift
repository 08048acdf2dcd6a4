/// A byte path to an HCI controller: sends packets, delivers the controller's packets in order
/// (the Core spec's "HCI transport layer": H4 over a socket or a UART, or a user channel).
/// Called a pipe so it is not mistaken for a `GATTTransport` such as `HCIGATTTransport`.
package protocol H4Pipe: Sendable {
    /// What was opened, e.g. "hci:tcp:127.0.0.1:9001".
    var name: String { get }
    /// The controller's packets, in arrival order. Finishes when the transport closes or fails
    /// (`failure` then says why). Iterate it from one task only.
    var incoming: AsyncStream<HCIPacket> { get }
    /// Why `incoming` finished, if it finished on its own (nil after `close()`).
    var failure: HCIError? { get }
    func send(_ packet: HCIPacket) async throws(HCIError)
    /// Stops reading and releases the transport; `incoming` finishes.
    func close()
}
