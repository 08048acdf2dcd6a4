/// ATT_HANDLE_VALUE_IND (Core spec Vol 3, Part F, 3.4.7.2): a server
/// "indication of an attribute's value"; the client answers with an
/// ATT_HANDLE_VALUE_CFM PDU.
public struct ATTHandleValueIndication: ATTProtocolDataUnit, ATTHandleValuePDU {
    public static let opcode = ATTOpcode.handleValueIndication

    /// Attribute Handle: "the handle of the attribute".
    public var attributeHandle: UInt16
    /// Attribute Value: "the current value of the attribute" (at most ATT_MTU - 3
    /// bytes).
    public var attributeValue: [UInt8]

    public init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }
}
