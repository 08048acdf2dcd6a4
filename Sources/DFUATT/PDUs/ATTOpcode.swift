/// An Attribute Opcode (Core spec Vol 3, Part F, 3.3.1): bits 0-5 the method, bit 6 the
/// Command Flag, bit 7 the Authentication Signature Flag.
///
/// Open: an opcode this module does not decode is still carried and printed by number.
package struct ATTOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package init(_ rawValue: UInt8) { self.rawValue = rawValue }

    package static let errorResponse = ATTOpcode(0x01)
    package static let exchangeMTURequest = ATTOpcode(0x02)
    package static let exchangeMTUResponse = ATTOpcode(0x03)
    package static let findInformationRequest = ATTOpcode(0x04)
    package static let findInformationResponse = ATTOpcode(0x05)
    package static let findByTypeValueRequest = ATTOpcode(0x06)
    package static let findByTypeValueResponse = ATTOpcode(0x07)
    package static let readByTypeRequest = ATTOpcode(0x08)
    package static let readByTypeResponse = ATTOpcode(0x09)
    package static let readRequest = ATTOpcode(0x0A)
    package static let readResponse = ATTOpcode(0x0B)
    package static let readBlobRequest = ATTOpcode(0x0C)
    package static let readBlobResponse = ATTOpcode(0x0D)
    package static let readMultipleRequest = ATTOpcode(0x0E)
    package static let readMultipleResponse = ATTOpcode(0x0F)
    package static let readByGroupTypeRequest = ATTOpcode(0x10)
    package static let readByGroupTypeResponse = ATTOpcode(0x11)
    package static let writeRequest = ATTOpcode(0x12)
    package static let writeResponse = ATTOpcode(0x13)
    package static let prepareWriteRequest = ATTOpcode(0x16)
    package static let prepareWriteResponse = ATTOpcode(0x17)
    package static let executeWriteRequest = ATTOpcode(0x18)
    package static let executeWriteResponse = ATTOpcode(0x19)
    package static let readMultipleVariableRequest = ATTOpcode(0x20)
    package static let readMultipleVariableResponse = ATTOpcode(0x21)
    package static let multipleHandleValueNotification = ATTOpcode(0x23)
    package static let handleValueNotification = ATTOpcode(0x1B)
    package static let handleValueIndication = ATTOpcode(0x1D)
    package static let handleValueConfirmation = ATTOpcode(0x1E)
    package static let writeCommand = ATTOpcode(0x52)
    package static let signedWriteCommand = ATTOpcode(0xD2)

    /// Bit 6, the Command Flag: commands get no response.
    package var isCommand: Bool { rawValue & 0x40 != 0 }

    /// Whether the spec defines this opcode as a request (a PDU the receiving server must
    /// answer with its response or an Error Response).
    package var isRequest: Bool { Self.requestNames[self] != nil }

    /// The response opcode that completes a transaction started by this request, if it is one.
    package var responseOpcode: ATTOpcode? {
        isRequest ? ATTOpcode(rawValue + 1) : nil
    }

    /// The spec's name, e.g. "Read By Group Type Request".
    package var name: String? { Self.requestNames[self] ?? Self.otherNames[self] }

    /// "Read Request (0x0A)", or "opcode 0x7F" when the spec name is not known here.
    package var description: String {
        let number = "0x" + hexByte(rawValue)
        return name.map { "\($0) (\(number))" } ?? "opcode \(number)"
    }

    private static let requestNames: [ATTOpcode: String] = [
        .exchangeMTURequest: "Exchange MTU Request",
        .findInformationRequest: "Find Information Request",
        .findByTypeValueRequest: "Find By Type Value Request",
        .readByTypeRequest: "Read By Type Request",
        .readRequest: "Read Request",
        .readBlobRequest: "Read Blob Request",
        .readMultipleRequest: "Read Multiple Request",
        .readByGroupTypeRequest: "Read By Group Type Request",
        .writeRequest: "Write Request",
        .prepareWriteRequest: "Prepare Write Request",
        .executeWriteRequest: "Execute Write Request",
        .readMultipleVariableRequest: "Read Multiple Variable Request",
    ]

    private static let otherNames: [ATTOpcode: String] = [
        .errorResponse: "Error Response",
        .exchangeMTUResponse: "Exchange MTU Response",
        .findInformationResponse: "Find Information Response",
        .findByTypeValueResponse: "Find By Type Value Response",
        .readByTypeResponse: "Read By Type Response",
        .readResponse: "Read Response",
        .readBlobResponse: "Read Blob Response",
        .readMultipleResponse: "Read Multiple Response",
        .readByGroupTypeResponse: "Read By Group Type Response",
        .writeResponse: "Write Response",
        .prepareWriteResponse: "Prepare Write Response",
        .executeWriteResponse: "Execute Write Response",
        .readMultipleVariableResponse: "Read Multiple Variable Response",
        .multipleHandleValueNotification: "Multiple Handle Value Notification",
        .handleValueNotification: "Handle Value Notification",
        .handleValueIndication: "Handle Value Indication",
        .handleValueConfirmation: "Handle Value Confirmation",
        .writeCommand: "Write Command",
        .signedWriteCommand: "Signed Write Command",
    ]
}

/// Two upper-case hex digits.
func hexByte(_ byte: UInt8) -> String {
    let text = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0" + text : text
}

/// "0x002A".
func hexHandle(_ handle: UInt16) -> String {
    "0x" + hexByte(UInt8(handle >> 8)) + hexByte(UInt8(handle & 0xFF))
}
