/// ATT_EXCHANGE_MTU_RSP (Core spec Vol 3, Part F, 3.4.2.2): "sent in reply to a received
/// ATT_EXCHANGE_MTU_REQ PDU".
package struct ATTExchangeMTUResponse: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.exchangeMTUResponse

    /// Server Rx MTU: "ATT Server receive MTU size".
    package var serverRxMTU: UInt16

    package init(serverRxMTU: UInt16) { self.serverRxMTU = serverRxMTU }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        serverRxMTU = try reader.uint16()
        try reader.finish()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode)
        writer.uint16(serverRxMTU)
        return writer.bytes
    }
}
