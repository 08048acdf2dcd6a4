/// ATT_ERROR_RSP (Core spec Vol 3, Part F, 3.4.1.1): "used to state that a given request
/// cannot be performed, and to provide the reason".
package struct ATTErrorResponse: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.errorResponse

    /// Request Opcode In Error: "the request that generated this ATT_ERROR_RSP PDU".
    package var requestOpcodeInError: ATTOpcode
    /// Attribute Handle In Error: "the attribute handle that generated this ATT_ERROR_RSP
    /// PDU" (0x0000 when the request has no handle).
    package var attributeHandleInError: UInt16
    /// Error Code: "the reason why the request has generated an ATT_ERROR_RSP PDU".
    package var errorCode: ATTErrorCode

    package init(requestOpcodeInError: ATTOpcode, attributeHandleInError: UInt16, errorCode: ATTErrorCode) {
        self.requestOpcodeInError = requestOpcodeInError
        self.attributeHandleInError = attributeHandleInError
        self.errorCode = errorCode
    }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        requestOpcodeInError = ATTOpcode(try reader.byte())
        attributeHandleInError = try reader.uint16()
        errorCode = ATTErrorCode(try reader.byte())
        try reader.finish()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode)
        writer.byte(requestOpcodeInError.rawValue)
        writer.uint16(attributeHandleInError)
        writer.byte(errorCode.rawValue)
        return writer.bytes
    }
}
