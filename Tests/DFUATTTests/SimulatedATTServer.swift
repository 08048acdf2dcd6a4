import DFUATT
import DFUBytes
import DFUGATT

/// A small GATT server for tests: an attribute database answering the ATT requests a DFU
/// client makes, over the peripheral end of a `LoopbackATTBearer`. The real `ATTClient` and
/// `ATTGATTLink` talk to it in bytes, so the codecs run in every test.
actor SimulatedATTServer {
    struct Attribute {
        var handle: UInt16
        var type: BluetoothUUID
        var value: [UInt8]
        /// For service declarations: the last handle of the service.
        var endGroupHandle: UInt16?
    }

    /// How the server answers requests.
    enum Behaviour {
        case normal
        /// Never answers a request.
        case silent
        /// Answers every request with these bytes.
        case garbage([UInt8])
    }

    let bearer: LoopbackATTBearer
    private(set) var attributes: [Attribute]
    let serverRxMTU: UInt16
    private(set) var mtu = 23
    var behaviour = Behaviour.normal
    /// Every PDU received, in order.
    private(set) var received: [[UInt8]] = []
    private(set) var confirmations = 0
    private var task: Task<Void, Never>?

    init(bearer: LoopbackATTBearer, attributes: [Attribute], serverRxMTU: UInt16 = 247) {
        self.bearer = bearer
        self.attributes = attributes.sorted { $0.handle < $1.handle }
        self.serverRxMTU = serverRxMTU
    }

    func start() {
        task = Task {
            while let pdu = try? await bearer.receive() {
                await handle(pdu)
            }
        }
    }

    func setBehaviour(_ behaviour: Behaviour) { self.behaviour = behaviour }

    func value(at handle: UInt16) -> [UInt8]? { attributes.first { $0.handle == handle }?.value }

    func setValue(_ value: [UInt8], at handle: UInt16) {
        guard let index = attributes.firstIndex(where: { $0.handle == handle }) else { return }
        attributes[index].value = value
    }

    func notify(_ handle: UInt16, _ value: [UInt8]) async {
        try? await bearer.send(ATTHandleValueNotification(attributeHandle: handle, attributeValue: value).bytes)
    }

    func indicate(_ handle: UInt16, _ value: [UInt8]) async {
        try? await bearer.send(ATTHandleValueIndication(attributeHandle: handle, attributeValue: value).bytes)
    }

    func send(_ bytes: [UInt8]) async { try? await bearer.send(bytes) }

    private func handle(_ pdu: [UInt8]) async {
        received.append(pdu)
        guard let decoded = ATTPDU(bytes: pdu) else {
            if let opcode = pdu.first { await reply(error(ATTOpcode(opcode), 0, .invalidPDU)) }
            return
        }
        switch decoded {
        case .handleValueConfirmation:
            confirmations += 1
            return
        case let .writeCommand(command):
            setValue(command.attributeValue, at: command.attributeHandle)
            return
        default:
            break
        }
        switch behaviour {
        case .normal: await reply(answer(decoded))
        case .silent: return
        case let .garbage(bytes): await reply(bytes)
        }
    }

    private func reply(_ bytes: [UInt8]) async { try? await bearer.send(bytes) }

    private func error(_ opcode: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> [UInt8] {
        ATTErrorResponse(requestOpcodeInError: opcode, attributeHandleInError: handle, errorCode: code).bytes
    }

    /// The response to one request (Core spec Vol 3, Part F, 3.4).
    private func answer(_ pdu: ATTPDU) -> [UInt8] {
        switch pdu {
        case let .exchangeMTURequest(request):
            mtu = max(23, min(Int(request.clientRxMTU), Int(serverRxMTU)))
            return ATTExchangeMTUResponse(serverRxMTU: serverRxMTU).bytes

        case let .readByGroupTypeRequest(request):
            let opcode = ATTReadByGroupTypeRequest.opcode
            guard request.startingHandle != 0, request.startingHandle <= request.endingHandle else {
                return error(opcode, request.startingHandle, .invalidHandle)
            }
            guard request.attributeGroupType == GATTAttributeTypes.primaryService else {
                return error(opcode, request.startingHandle, .unsupportedGroupType)
            }
            let found = inRange(request.startingHandle, request.endingHandle).filter { $0.type == request.attributeGroupType }
            guard let first = found.first else { return error(opcode, request.startingHandle, .attributeNotFound) }
            let sameLength = found.prefix { $0.value.count == first.value.count }
            let fitting = sameLength.prefix(max(1, (mtu - 2) / (4 + first.value.count)))
            return ATTReadByGroupTypeResponse(attributeDataList: fitting.map {
                .init(attributeHandle: $0.handle, endGroupHandle: $0.endGroupHandle ?? $0.handle, attributeValue: $0.value)
            }).bytes

        case let .readByTypeRequest(request):
            let opcode = ATTReadByTypeRequest.opcode
            guard request.startingHandle != 0, request.startingHandle <= request.endingHandle else {
                return error(opcode, request.startingHandle, .invalidHandle)
            }
            let found = inRange(request.startingHandle, request.endingHandle).filter { $0.type == request.attributeType }
            guard let first = found.first else { return error(opcode, request.startingHandle, .attributeNotFound) }
            let valueLength = min(first.value.count, mtu - 4)
            let sameLength = found.prefix { $0.value.count == first.value.count }
            let fitting = sameLength.prefix(max(1, (mtu - 2) / (2 + valueLength)))
            return ATTReadByTypeResponse(attributeDataList: fitting.map {
                .init(attributeHandle: $0.handle, attributeValue: Array($0.value.prefix(valueLength)))
            }).bytes

        case let .findInformationRequest(request):
            let opcode = ATTFindInformationRequest.opcode
            guard request.startingHandle != 0, request.startingHandle <= request.endingHandle else {
                return error(opcode, request.startingHandle, .invalidHandle)
            }
            let found = inRange(request.startingHandle, request.endingHandle)
            guard let first = found.first else { return error(opcode, request.startingHandle, .attributeNotFound) }
            let short = first.type.uuid16 != nil
            let sameFormat = found.prefix { ($0.type.uuid16 != nil) == short }
            let fitting = sameFormat.prefix(max(1, (mtu - 2) / (short ? 4 : 18)))
            return ATTFindInformationResponse(information: fitting.map { .init(handle: $0.handle, type: $0.type) }).bytes

        case let .readRequest(request):
            guard let value = value(at: request.attributeHandle) else {
                return error(ATTReadRequest.opcode, request.attributeHandle, .invalidHandle)
            }
            return ATTReadResponse(attributeValue: Array(value.prefix(mtu - 1))).bytes

        case let .readBlobRequest(request):
            let opcode = ATTReadBlobRequest.opcode
            guard let value = value(at: request.attributeHandle) else {
                return error(opcode, request.attributeHandle, .invalidHandle)
            }
            guard value.count > mtu - 1 else { return error(opcode, request.attributeHandle, .attributeNotLong) }
            let offset = Int(request.valueOffset)
            guard offset <= value.count else { return error(opcode, request.attributeHandle, .invalidOffset) }
            return ATTReadBlobResponse(partAttributeValue: Array(value[offset...].prefix(mtu - 1))).bytes

        case let .writeRequest(request):
            guard value(at: request.attributeHandle) != nil else {
                return error(ATTWriteRequest.opcode, request.attributeHandle, .invalidHandle)
            }
            setValue(request.attributeValue, at: request.attributeHandle)
            return ATTWriteResponse().bytes

        default:
            return error(pdu.opcode, 0, .requestNotSupported)
        }
    }

    private func inRange(_ start: UInt16, _ end: UInt16) -> [Attribute] {
        attributes.filter { (start...end).contains($0.handle) }
    }
}

/// Builds a database the way a GATT server lays it out: a service declaration, then for each
/// characteristic its declaration, its value and, if it notifies or indicates, a CCCD.
struct GATTDatabaseBuilder {
    private(set) var attributes: [SimulatedATTServer.Attribute] = []
    private var nextHandle: UInt16 = 1
    private var serviceIndex: Int?

    /// Starts a service; returns its declaration handle.
    @discardableResult
    mutating func service(_ uuid: BluetoothUUID) -> UInt16 {
        serviceIndex = nil
        let handle = take()
        serviceIndex = attributes.count
        attributes.append(.init(handle: handle, type: GATTAttributeTypes.primaryService,
                                value: uuid.littleEndianBytes, endGroupHandle: handle))
        return handle
    }

    /// Adds a characteristic; returns its value handle.
    @discardableResult
    mutating func characteristic(_ uuid: BluetoothUUID, _ properties: GATTProperties, value: [UInt8] = [],
                                 extraDescriptors: [BluetoothUUID] = []) -> UInt16 {
        let declarationHandle = take()
        let valueHandle = take()
        let declaration = GATTCharacteristicDeclaration(declarationHandle: declarationHandle, properties: properties,
                                                        valueHandle: valueHandle, uuid: uuid)
        attributes.append(.init(handle: declarationHandle, type: GATTAttributeTypes.characteristic, value: declaration.value))
        attributes.append(.init(handle: valueHandle, type: uuid, value: value))
        for descriptor in extraDescriptors {
            attributes.append(.init(handle: take(), type: descriptor, value: []))
        }
        if !properties.isDisjoint(with: [.notify, .indicate]) {
            attributes.append(.init(handle: take(), type: GATTAttributeTypes.clientCharacteristicConfiguration,
                                    value: [0, 0]))
        }
        return valueHandle
    }

    private mutating func take() -> UInt16 {
        defer { nextHandle += 1 }
        if let serviceIndex { attributes[serviceIndex].endGroupHandle = nextHandle }
        return nextHandle
    }
}
