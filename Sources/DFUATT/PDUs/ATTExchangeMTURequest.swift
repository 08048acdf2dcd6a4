/// ATT_EXCHANGE_MTU_REQ (Core spec Vol 3, Part F, 3.4.2.1): "used by the client to inform the
/// server of the client's maximum receive MTU size and request the server to respond with its
/// maximum receive MTU size".
public struct ATTExchangeMTURequest: ATTRequestPDU {
    public typealias Response = ATTExchangeMTUResponse
    public static let opcode = ATTOpcode.exchangeMTURequest

    /// Client Rx MTU: "client receive MTU size".
    public var clientRxMTU: UInt16

    public init(clientRxMTU: UInt16) { self.clientRxMTU = clientRxMTU }

    public init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        clientRxMTU = try reader.uint16()
        try reader.finish()
    }

    public var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode)
        writer.uint16(clientRxMTU)
        return writer.bytes
    }
}
