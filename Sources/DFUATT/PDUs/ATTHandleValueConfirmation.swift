/// ATT_HANDLE_VALUE_CFM (Core spec Vol 3, Part F, 3.4.7.3): "sent in
/// response to a received ATT_HANDLE_VALUE_IND PDU and confirms that the client has received
/// an indication of the given attribute".
/// It has no parameters.
package struct ATTHandleValueConfirmation: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.handleValueConfirmation

    package init() {}

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        let reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        try reader.finish()
    }

    package var bytes: [UInt8] { [Self.opcode.rawValue] }
}
