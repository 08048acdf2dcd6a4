/// ATT_HANDLE_VALUE_IND (Core spec Vol 3, Part F, 3.4.7.2): a server
/// "indication of an attribute's value"; the client answers with an
/// ATT_HANDLE_VALUE_CFM PDU.
package struct ATTHandleValueIndication: ATTProtocolDataUnit, ATTHandleValuePDU {
    package static let opcode = ATTOpcode.handleValueIndication

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
