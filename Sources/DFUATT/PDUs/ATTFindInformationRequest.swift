/// ATT_FIND_INFORMATION_REQ (Core spec Vol 3, Part F, 3.4.3.1): "used to obtain the mapping of
/// attribute handles with their associated types".
package struct ATTFindInformationRequest: ATTRequestPDU {
    package typealias Response = ATTFindInformationResponse
    package static let opcode = ATTOpcode.findInformationRequest

    /// Starting Handle: "first requested handle number".
    package var startingHandle: UInt16
    /// Ending Handle: "last requested handle number".
    package var endingHandle: UInt16

    package init(startingHandle: UInt16, endingHandle: UInt16) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
    }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        startingHandle = try reader.uint16()
        endingHandle = try reader.uint16()
        try reader.finish()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode)
        writer.uint16(startingHandle)
        writer.uint16(endingHandle)
        return writer.bytes
    }
}
