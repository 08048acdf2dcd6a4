/// A failure of the GATT layer or of the transport under it, with the device it concerns.
public struct GATTError: Error, Sendable, Equatable, CustomStringConvertible {
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

    public var kind: Kind
    public var address: String?
    public var detail: String

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
