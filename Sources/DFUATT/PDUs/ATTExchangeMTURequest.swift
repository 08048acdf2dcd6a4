/// ATT_EXCHANGE_MTU_REQ (Core spec Vol 3, Part F, 3.4.2.1): "used by the client to inform the
/// server of the client's maximum receive MTU size and request the server to respond with its
/// maximum receive MTU size".
package struct ATTExchangeMTURequest: ATTRequestPDU {
    package typealias Response = ATTExchangeMTUResponse
    package static let opcode = ATTOpcode.exchangeMTURequest

    /// Client Rx MTU: "client receive MTU size".
    package var clientRxMTU: UInt16

    package init(clientRxMTU: UInt16) { self.clientRxMTU = clientRxMTU }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        clientRxMTU = try reader.uint16()
        try reader.finish()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode)
        writer.uint16(clientRxMTU)
        return writer.bytes
    }
}
