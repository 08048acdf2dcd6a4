/// A value the server pushed: a Handle Value Notification or Indication, stamped with the
/// client's clock when it arrived.
public struct ATTReceivedValue: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case notification
        /// Already confirmed by the client (Handle Value Confirmation sent on arrival).
        case indication
    }

    public var kind: Kind
    public var attributeHandle: UInt16
    public var attributeValue: [UInt8]
    public var receivedAt: Duration

    public init(kind: Kind, attributeHandle: UInt16, attributeValue: [UInt8], receivedAt: Duration) {
        self.kind = kind
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
        self.receivedAt = receivedAt
    }
}
