/// A failure of the GATT layer or of the transport under it, with the device it concerns.
public struct GATTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, which decides what the engine does next (reconnect, retry, give up).
    public enum Kind: Sendable, Equatable {
        /// The link dropped (the peer vanished, rebooted, or the radio lost it).
        case disconnected
        /// The peer did not answer an ATT request in time.
        case timeout
        /// The peer answered an ATT request with an ATT error code.
        case attError(code: UInt8, handle: UInt16)
        /// No device could be reached or connected.
        case connectionFailed
        /// The transport itself cannot be used (adapter missing, permissions...).
        case transportUnavailable
        /// A request this transport cannot make.
        case unsupported
    }

    /// What went wrong.
    public var kind: Kind
    /// The device it concerns ("C0:11:22:33:44:55"), or nil for the transport as a whole.
    public var address: String?
    /// What happened and, where it helps, what to do, in words for the user.
    public var detail: String

    /// An error of `kind` about the device at `address`, explained by `detail`.
    public init(_ kind: Kind, address: String? = nil, detail: String) {
        self.kind = kind
        self.address = address
        self.detail = detail
    }

    public var description: String {
        let prefix = address.map { "\($0): " } ?? ""
        switch kind {
        case .disconnected: return "\(prefix)link lost: \(detail)"
        case .timeout: return "\(prefix)no answer: \(detail)"
        case let .attError(code, handle):
            return "\(prefix)ATT error 0x\(String(code, radix: 16)) on handle 0x\(String(handle, radix: 16)): \(detail)"
        case .connectionFailed: return "\(prefix)could not connect: \(detail)"
        case .transportUnavailable: return "transport unavailable: \(detail)"
        case .unsupported: return "\(prefix)unsupported: \(detail)"
        }
    }
}
