/// ATT_WRITE_RSP (Core spec Vol 3, Part F, 3.4.5.2): "sent in reply to a valid
/// ATT_WRITE_REQ PDU and acknowledges that the attribute has been successfully written".
/// It has no parameters.
package struct ATTWriteResponse: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.writeResponse

    package init() {}

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        let reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        try reader.finish()
    }

    package var bytes: [UInt8] { [Self.opcode.rawValue] }
}
