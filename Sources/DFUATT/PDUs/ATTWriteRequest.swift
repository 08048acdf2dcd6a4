/// ATT_WRITE_REQ (Core spec Vol 3, Part F, 3.4.5.1): "used to request the server to
/// write the value of an attribute and acknowledge that this has been achieved in an
/// ATT_WRITE_RSP PDU".
package struct ATTWriteRequest: ATTRequestPDU, ATTHandleValuePDU {
    package typealias Response = ATTWriteResponse
    package static let opcode = ATTOpcode.writeRequest

    /// Attribute Handle: "the handle of the attribute".
    package var attributeHandle: UInt16
    /// Attribute Value: "the value to be written to the attribute" (at most ATT_MTU - 3
    /// bytes).
    package var attributeValue: [UInt8]

    package init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }
}
