/// Any ATT PDU, decoded by its opcode: what a bearer delivers, as a value.
///
/// Opcodes this module has no type for (Prepare Write, Read Multiple, Signed Write Command...)
/// decode as `.other`, so that a client can still answer a request it does not support.
package enum ATTPDU: Sendable, Hashable, CustomStringConvertible {
    case errorResponse(ATTErrorResponse)
    case exchangeMTURequest(ATTExchangeMTURequest)
    case exchangeMTUResponse(ATTExchangeMTUResponse)
    case findInformationRequest(ATTFindInformationRequest)
    case findInformationResponse(ATTFindInformationResponse)
    case readByTypeRequest(ATTReadByTypeRequest)
    case readByTypeResponse(ATTReadByTypeResponse)
    case readRequest(ATTReadRequest)
    case readResponse(ATTReadResponse)
    case readBlobRequest(ATTReadBlobRequest)
    case readBlobResponse(ATTReadBlobResponse)
    case readByGroupTypeRequest(ATTReadByGroupTypeRequest)
    case readByGroupTypeResponse(ATTReadByGroupTypeResponse)
    case writeRequest(ATTWriteRequest)
    case writeResponse(ATTWriteResponse)
    case writeCommand(ATTWriteCommand)
    case handleValueNotification(ATTHandleValueNotification)
    case handleValueIndication(ATTHandleValueIndication)
    case handleValueConfirmation(ATTHandleValueConfirmation)
    /// An opcode without a type here; `parameters` are the bytes after it.
    case other(opcode: ATTOpcode, parameters: [UInt8])

    /// Decodes any PDU. Throws only for an empty input or a known opcode whose parameters are
    /// malformed.
    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        guard let first = bytes.first else { throw .empty }
        switch ATTOpcode(first) {
        case .errorResponse: self = .errorResponse(try ATTErrorResponse(decoding: bytes))
        case .exchangeMTURequest: self = .exchangeMTURequest(try ATTExchangeMTURequest(decoding: bytes))
        case .exchangeMTUResponse: self = .exchangeMTUResponse(try ATTExchangeMTUResponse(decoding: bytes))
        case .findInformationRequest: self = .findInformationRequest(try ATTFindInformationRequest(decoding: bytes))
        case .findInformationResponse: self = .findInformationResponse(try ATTFindInformationResponse(decoding: bytes))
        case .readByTypeRequest: self = .readByTypeRequest(try ATTReadByTypeRequest(decoding: bytes))
        case .readByTypeResponse: self = .readByTypeResponse(try ATTReadByTypeResponse(decoding: bytes))
        case .readRequest: self = .readRequest(try ATTReadRequest(decoding: bytes))
        case .readResponse: self = .readResponse(try ATTReadResponse(decoding: bytes))
        case .readBlobRequest: self = .readBlobRequest(try ATTReadBlobRequest(decoding: bytes))
        case .readBlobResponse: self = .readBlobResponse(try ATTReadBlobResponse(decoding: bytes))
        case .readByGroupTypeRequest: self = .readByGroupTypeRequest(try ATTReadByGroupTypeRequest(decoding: bytes))
        case .readByGroupTypeResponse: self = .readByGroupTypeResponse(try ATTReadByGroupTypeResponse(decoding: bytes))
        case .writeRequest: self = .writeRequest(try ATTWriteRequest(decoding: bytes))
        case .writeResponse: self = .writeResponse(try ATTWriteResponse(decoding: bytes))
        case .writeCommand: self = .writeCommand(try ATTWriteCommand(decoding: bytes))
        case .handleValueNotification: self = .handleValueNotification(try ATTHandleValueNotification(decoding: bytes))
        case .handleValueIndication: self = .handleValueIndication(try ATTHandleValueIndication(decoding: bytes))
        case .handleValueConfirmation: self = .handleValueConfirmation(try ATTHandleValueConfirmation(decoding: bytes))
        default: self = .other(opcode: ATTOpcode(first), parameters: Array(bytes.dropFirst()))
        }
    }

    /// Decodes any PDU, or nil if it is malformed.
    package init?(bytes: [UInt8]) {
        guard let decoded = try? ATTPDU(decoding: bytes) else { return nil }
        self = decoded
    }

    /// The PDU as a value of its own type, when it has one.
    package var unit: (any ATTProtocolDataUnit)? {
        switch self {
        case let .errorResponse(pdu): return pdu
        case let .exchangeMTURequest(pdu): return pdu
        case let .exchangeMTUResponse(pdu): return pdu
        case let .findInformationRequest(pdu): return pdu
        case let .findInformationResponse(pdu): return pdu
        case let .readByTypeRequest(pdu): return pdu
        case let .readByTypeResponse(pdu): return pdu
        case let .readRequest(pdu): return pdu
        case let .readResponse(pdu): return pdu
        case let .readBlobRequest(pdu): return pdu
        case let .readBlobResponse(pdu): return pdu
        case let .readByGroupTypeRequest(pdu): return pdu
        case let .readByGroupTypeResponse(pdu): return pdu
        case let .writeRequest(pdu): return pdu
        case let .writeResponse(pdu): return pdu
        case let .writeCommand(pdu): return pdu
        case let .handleValueNotification(pdu): return pdu
        case let .handleValueIndication(pdu): return pdu
        case let .handleValueConfirmation(pdu): return pdu
        case .other: return nil
        }
    }

    package var opcode: ATTOpcode {
        switch self {
        case let .other(opcode, _): return opcode
        default: return unit.map { type(of: $0).opcode } ?? ATTOpcode(0)
        }
    }

    package var bytes: [UInt8] {
        switch self {
        case let .other(opcode, parameters): return [opcode.rawValue] + parameters
        default: return unit?.bytes ?? []
        }
    }

    /// The opcode's name, e.g. "Read Request (0x0A)".
    package var description: String { opcode.description }
}
