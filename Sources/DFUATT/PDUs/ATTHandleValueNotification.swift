/// ATT_HANDLE_VALUE_NTF (Core spec Vol 3, Part F, 3.4.7.1): a server
/// "notification of an attribute's value at any time". No confirmation follows.
package struct ATTHandleValueNotification: ATTProtocolDataUnit, ATTHandleValuePDU {
    package static let opcode = ATTOpcode.handleValueNotification

    /// Attribute Handle: "the handle of the attribute".
    package var attributeHandle: UInt16
    /// Attribute Value: "the current value of the attribute" (at most ATT_MTU - 3
    /// bytes).
    package var attributeValue: [UInt8]

    package init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }
}
