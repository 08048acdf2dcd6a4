/// A value the server pushed: a Handle Value Notification or Indication, stamped with the
/// client's clock when it arrived.
package struct ATTReceivedValue: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case notification
        /// Already confirmed by the client (Handle Value Confirmation sent on arrival).
        case indication
    }

    package var kind: Kind
    package var attributeHandle: UInt16
    package var attributeValue: [UInt8]
    package var receivedAt: Duration

    package init(kind: Kind, attributeHandle: UInt16, attributeValue: [UInt8], receivedAt: Duration) {
        self.kind = kind
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
        self.receivedAt = receivedAt
    }
}
