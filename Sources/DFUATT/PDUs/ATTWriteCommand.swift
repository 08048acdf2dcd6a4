/// ATT_WRITE_CMD (Core spec Vol 3, Part F, 3.4.5.3): "used to request the server to
/// write the value of an attribute, typically into a control-point attribute". No response
/// follows.
package struct ATTWriteCommand: ATTProtocolDataUnit, ATTHandleValuePDU {
    package static let opcode = ATTOpcode.writeCommand

    /// Attribute Handle: "the handle of the attribute".
    package var attributeHandle: UInt16
    /// Attribute Value: "the value to be written to the attribute" (at most ATT_MTU - 3 bytes).
    package var attributeValue: [UInt8]

    package init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }
}
