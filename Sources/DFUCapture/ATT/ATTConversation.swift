import DFUATT
import DFUBytes
import DFUGATT

/// The ATT traffic of one connection read into operations and a GATT database: a pure machine
/// fed one PDU at a time, in capture order. Who sent a PDU is told by its opcode (requests,
/// commands and confirmations come from the client; responses, notifications and indications
/// from the server); where the capture also says which side sent it, PDUs of the reverse
/// bearer (the device acting as a GATT client of the phone) are told apart and left out.
struct ATTConversation: Sendable {
    private(set) var operations: [CapturedOperation] = []
    private(set) var discovery = GATTDiscoveryRecord()
    private(set) var notes: [String] = []
    private var clientMTU: Int?
    private var serverMTU: Int?
    /// The side the first client PDU came from, where the capture tells sides apart.
    private var clientSide: ATTSender?
    /// The last request the client sent (whole PDU), to read the response against.
    private var lastRequest: [UInt8] = []
    private var preparedWrites: [ATTPrepareWriteRequest] = []
    private var executeWroteValues = false
    /// The handle of the last Read Request and the index of the `.readValue` that answered it.
    private var lastRead: (handle: UInt16, valueIndex: Int?)?
    private var notifiedHandles: Set<UInt16> = []
    private var reverseBearerNoted = false
    private var malformedCount = 0

    /// ATT_MTU as agreed (the smaller of the two values) once both sides spoke.
    var mtu: Int? {
        guard let clientMTU, let serverMTU else { return nil }
        return min(clientMTU, serverMTU)
    }

    /// Opcodes of the discovery requests whose end is an Attribute Not Found error.
    private static let discoveryRequests: Set<UInt8> = [0x04, 0x06, 0x08, 0x10]

    /// Whether the spec has the client send `opcode`.
    static func isClientOpcode(_ opcode: ATTOpcode) -> Bool {
        opcode.isRequest || opcode.isCommand || opcode == .handleValueConfirmation
    }

    /// Takes one ATT PDU (opcode first) sent by `sender` (nil when the capture does not say).
    mutating func receive(_ pdu: [UInt8], from sender: ATTSender?, at time: Duration) {
        guard let first = pdu.first else { return }
        let opcode = ATTOpcode(first)
        let fromClient = Self.isClientOpcode(opcode)
        if let sender {
            let client = clientSide ?? (fromClient ? sender : sender.other)
            clientSide = client
            guard (sender == client) == fromClient else {
                if !reverseBearerNoted {
                    reverseBearerNoted = true
                    notes.append("the device also acts as a GATT client on this connection (first seen: \(opcode)); "
                                 + "that traffic is left out")
                }
                return
            }
        }
        if fromClient {
            receiveFromClient(pdu, opcode: opcode, at: time)
        } else {
            receiveFromServer(pdu, opcode: opcode, at: time)
        }
    }

    private mutating func append(_ kind: CapturedOperation.Kind, _ time: Duration) {
        operations.append(CapturedOperation(time: time, kind: kind))
    }

    private mutating func malformed(_ pdu: [UInt8], _ opcode: ATTOpcode) {
        malformedCount += 1
        if malformedCount <= 5 {
            notes.append("a malformed \(opcode) of \(pdu.count) byte(s) is left out")
        }
    }

    private mutating func receiveFromClient(_ pdu: [UInt8], opcode: ATTOpcode, at time: Duration) {
        if opcode.isRequest { lastRequest = pdu }
        switch opcode {
        case .exchangeMTURequest:
            guard let request = ATTExchangeMTURequest(bytes: pdu) else { return malformed(pdu, opcode) }
            clientMTU = Int(request.clientRxMTU)
            append(.mtuExchange(client: clientMTU, server: nil), time)
        case .writeRequest:
            guard let request = ATTWriteRequest(bytes: pdu) else { return malformed(pdu, opcode) }
            append(.write(handle: request.attributeHandle, value: request.attributeValue, withResponse: true), time)
        case .writeCommand:
            guard let command = ATTWriteCommand(bytes: pdu) else { return malformed(pdu, opcode) }
            append(.write(handle: command.attributeHandle, value: command.attributeValue, withResponse: false), time)
        case .signedWriteCommand:
            // Handle, value, then a 12-byte Authentication Signature.
            guard pdu.count >= 15 else { return malformed(pdu, opcode) }
            append(.write(handle: UInt16(pdu[1]) | UInt16(pdu[2]) << 8, value: Array(pdu[3..<pdu.count - 12]),
                          withResponse: false), time)
        case .prepareWriteRequest:
            guard let request = ATTPrepareWriteRequest(bytes: pdu) else { return malformed(pdu, opcode) }
            preparedWrites.append(request)
        case .executeWriteRequest:
            guard let request = ATTExecuteWriteRequest(bytes: pdu) else { return malformed(pdu, opcode) }
            executeWroteValues = request.flags == 0x01 && !preparedWrites.isEmpty
            if request.flags == 0x01 { appendPreparedWrites(at: time) }
            preparedWrites = []
        case .readRequest:
            guard let request = ATTReadRequest(bytes: pdu) else { return malformed(pdu, opcode) }
            append(.read(handle: request.attributeHandle), time)
            lastRead = (request.attributeHandle, nil)
        case .readBlobRequest:
            guard let request = ATTReadBlobRequest(bytes: pdu) else { return malformed(pdu, opcode) }
            if let lastRead, lastRead.handle == request.attributeHandle, lastRead.valueIndex != nil { return }
            append(.read(handle: request.attributeHandle), time)
            lastRead = (request.attributeHandle, nil)
        default:
            // Discovery requests are kept in `lastRequest`; confirmations carry nothing.
            break
        }
    }

    /// One `.write` per handle of the queued Prepare Write Requests, each value put together
    /// from its parts at their offsets.
    private mutating func appendPreparedWrites(at time: Duration) {
        var handles: [UInt16] = []
        for request in preparedWrites where !handles.contains(request.attributeHandle) {
            handles.append(request.attributeHandle)
        }
        for handle in handles {
            var value: [UInt8] = []
            for part in preparedWrites where part.attributeHandle == handle {
                let offset = Int(part.valueOffset)
                if value.count < offset { value += [UInt8](repeating: 0, count: offset - value.count) }
                let end = offset + part.partAttributeValue.count
                if value.count < end { value += [UInt8](repeating: 0, count: end - value.count) }
                value.replaceSubrange(offset..<end, with: part.partAttributeValue)
            }
            append(.write(handle: handle, value: value, withResponse: true), time)
        }
    }

    private mutating func receiveFromServer(_ pdu: [UInt8], opcode: ATTOpcode, at time: Duration) {
        switch opcode {
        case .exchangeMTUResponse:
            guard let response = ATTExchangeMTUResponse(bytes: pdu) else { return malformed(pdu, opcode) }
            serverMTU = Int(response.serverRxMTU)
            append(.mtuExchange(client: nil, server: serverMTU), time)
        case .writeResponse:
            append(.writeAcknowledged, time)
        case .executeWriteResponse:
            if executeWroteValues { append(.writeAcknowledged, time) }
            executeWroteValues = false
        case .readResponse:
            guard let response = ATTReadResponse(bytes: pdu) else { return malformed(pdu, opcode) }
            append(.readValue(response.attributeValue), time)
            lastRead?.valueIndex = operations.count - 1
        case .readBlobResponse:
            guard let response = ATTReadBlobResponse(bytes: pdu) else { return malformed(pdu, opcode) }
            if let index = lastRead?.valueIndex, case let .readValue(value) = operations[index].kind {
                operations[index].kind = .readValue(value + response.partAttributeValue)
            } else {
                append(.readValue(response.partAttributeValue), time)
                lastRead?.valueIndex = operations.count - 1
            }
        case .handleValueNotification, .handleValueIndication:
            guard pdu.count >= 3 else { return malformed(pdu, opcode) }
            let handle = UInt16(pdu[1]) | UInt16(pdu[2]) << 8
            notifiedHandles.insert(handle)
            append(.notification(handle: handle, value: Array(pdu[3...]),
                                 indication: opcode == .handleValueIndication), time)
        case .multipleHandleValueNotification:
            for (handle, value) in ATTMultipleHandleValueNotification.values(pdu) {
                notifiedHandles.insert(handle)
                append(.notification(handle: handle, value: value, indication: false), time)
            }
        case .errorResponse:
            guard let error = ATTErrorResponse(bytes: pdu) else { return malformed(pdu, opcode) }
            let request = error.requestOpcodeInError.rawValue
            // Attribute Not Found is how every discovery procedure ends: not an operation.
            if Self.discoveryRequests.contains(request), error.errorCode.rawValue == 0x0A { return }
            append(.attError(request: request, handle: error.attributeHandleInError, code: error.errorCode.rawValue), time)
        default:
            receiveDiscoveryResponse(pdu, opcode: opcode)
        }
    }

    private mutating func receiveDiscoveryResponse(_ pdu: [UInt8], opcode: ATTOpcode) {
        let primaryService = BluetoothUUID(uuid16: 0x2800)
        switch opcode {
        case .readByGroupTypeResponse:
            guard let request = ATTReadByGroupTypeRequest(bytes: lastRequest),
                  request.attributeGroupType == primaryService else { return }
            guard let response = ATTReadByGroupTypeResponse(bytes: pdu) else { return malformed(pdu, opcode) }
            for element in response.attributeDataList {
                if let uuid = BluetoothUUID(littleEndianBytes: element.attributeValue) {
                    discovery.addService(start: element.attributeHandle, end: element.endGroupHandle, uuid: uuid)
                }
            }
        case .findByTypeValueResponse:
            guard let request = ATTFindByTypeValueRequest(bytes: lastRequest), request.attributeType == 0x2800,
                  let uuid = BluetoothUUID(littleEndianBytes: request.attributeValue) else { return }
            guard let response = ATTFindByTypeValueResponse(bytes: pdu) else { return malformed(pdu, opcode) }
            for element in response.handlesInformation {
                discovery.addService(start: element.found, end: element.groupEnd, uuid: uuid)
            }
        case .readByTypeResponse:
            guard let request = ATTReadByTypeRequest(bytes: lastRequest),
                  request.attributeType == BluetoothUUID(uuid16: 0x2803) else { return }
            guard let response = ATTReadByTypeResponse(bytes: pdu) else { return malformed(pdu, opcode) }
            for element in response.attributeDataList {
                if let declaration = GATTCharacteristicDeclaration(declarationHandle: element.attributeHandle,
                                                                    value: element.attributeValue) {
                    discovery.addDeclaration(declaration)
                }
            }
        case .findInformationResponse:
            guard let response = ATTFindInformationResponse(bytes: pdu) else { return malformed(pdu, opcode) }
            for element in response.information {
                discovery.addDescriptor(handle: element.handle, type: element.type)
            }
        default:
            break
        }
    }

    /// The operations with writes to Client Characteristic Configuration descriptors read as
    /// `.subscribe`: to a descriptor discovery found, or, where discovery did not cover the
    /// handle, a 2-byte write of 0...3 to the handle just after one the device notified.
    var finishedOperations: [CapturedOperation] {
        let valueHandles = Set(discovery.declarations.values.map(\.valueHandle))
        return operations.map { operation in
            guard case let .write(handle, value, _) = operation.kind, value.count == 2 else { return operation }
            let configuration = UInt16(value[0]) | UInt16(value[1]) << 8
            if discovery.isClientConfiguration(handle) {
                return CapturedOperation(time: operation.time, kind: .subscribe(
                    descriptorHandle: handle, valueHandle: discovery.valueHandle(owningDescriptor: handle),
                    configuration: configuration))
            }
            if configuration <= 3, handle > 0, !valueHandles.contains(handle), notifiedHandles.contains(handle - 1) {
                return CapturedOperation(time: operation.time, kind: .subscribe(
                    descriptorHandle: handle, valueHandle: handle - 1, configuration: configuration))
            }
            return operation
        }
    }
}

extension ATTSender {
    /// The other side.
    var other: ATTSender { self == .localOrCentral ? .remoteOrPeripheral : .localOrCentral }
}
