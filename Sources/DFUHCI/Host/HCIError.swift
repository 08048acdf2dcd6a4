import DFUGATT

/// A failure of the HCI host or of its transport: what failed (which command, which connection
/// handle, which device) and, where it helps, what to do.
package struct HCIError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// The transport cannot be opened (bad address, no such port, no Bluetooth sockets...).
        case transportUnavailable
        /// The transport closed or failed while in use.
        case transportClosed
        /// A command got no Command Complete / Command Status in time.
        case commandTimeout(command: String, opcode: HCIOpcode)
        /// The controller refused a command.
        case commandFailed(command: String, opcode: HCIOpcode, status: HCIStatus)
        /// An event this host waited for did not come in time (e.g. LE Connection Update Complete).
        case eventTimeout(event: String)
        /// The controller reported a failed connection attempt.
        case connectionFailed(address: DeviceAddress, status: HCIStatus)
        /// No connection was established in time (the device stopped advertising?).
        case connectionTimeout(address: DeviceAddress)
        /// The connection dropped, or was never there.
        case disconnected(handle: UInt16, reason: HCIStatus)
        /// The controller gave no ACL buffer back in time.
        case noACLCredits(handle: UInt16)
        /// A packet from the controller could not be decoded.
        case malformedPacket
        /// Pairing (the Security Manager exchange or the encryption that follows) failed.
        case pairingFailed(handle: UInt16)
        /// The call does not make sense in the host's current state.
        case invalidState
    }

    package var kind: Kind
    package var detail: String

    package init(_ kind: Kind, detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    package var description: String {
        let suffix = detail.isEmpty ? "" : ": \(detail)"
        switch kind {
        case .transportUnavailable:
            return "transport unavailable\(suffix)"
        case .transportClosed:
            return "HCI transport closed\(suffix)"
        case let .commandTimeout(command, opcode):
            return "HCI command \(command) (\(opcode)) got no answer\(suffix)"
        case let .commandFailed(command, opcode, status):
            return "HCI command \(command) (\(opcode)) failed: \(status)\(suffix)"
        case let .eventTimeout(event):
            return "no \(event) event arrived\(suffix)"
        case let .connectionFailed(address, status):
            return "\(address): could not connect: \(status)\(suffix)"
        case let .connectionTimeout(address):
            return "\(address): no connection established\(suffix)"
        case let .disconnected(handle, reason):
            return "connection 0x\(hexWord(handle)) is gone: \(reason)\(suffix)"
        case let .noACLCredits(handle):
            return "connection 0x\(hexWord(handle)): the controller returned no ACL buffer\(suffix)"
        case .malformedPacket:
            return "malformed HCI packet\(suffix)"
        case let .pairingFailed(handle):
            return "connection 0x\(hexWord(handle)): pairing failed\(suffix)"
        case .invalidState:
            return "HCI host: \(detail)"
        }
    }

    /// The same failure as the GATT layer reports it, for transports built on this host.
    package func gattError(address: DeviceAddress? = nil) -> GATTError {
        let gattKind: GATTError.Kind
        switch kind {
        case .transportUnavailable: gattKind = .transportUnavailable
        case .transportClosed, .disconnected, .noACLCredits: gattKind = .disconnected
        case .commandTimeout, .eventTimeout: gattKind = .timeout
        case .connectionFailed, .connectionTimeout, .pairingFailed: gattKind = .connectionFailed
        case .commandFailed, .malformedPacket, .invalidState: gattKind = .unsupported
        }
        // GATTError names the kind itself ("transport unavailable: ..."): hand it the detail
        // only where this description would repeat that name.
        let gattDetail = kind == .transportUnavailable ? detail : description
        return GATTError(gattKind, address: address?.description, detail: gattDetail)
    }
}
