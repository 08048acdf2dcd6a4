import DFUGATT
import DFUHCI

/// Reads LE link-layer packets (pcap 251, 256, 272) into connections: advertising PDUs give
/// advertisements, CONNECT_IND / AUX_CONNECT_REQ opens a connection named by its access
/// address, data PDUs carry L2CAP frames (LLID 2 start, 1 continuation) whose ATT channel goes
/// to the conversation, LL_TERMINATE_IND ends it, LL_ENC_REQ / LL_START_ENC_REQ stops reading
/// it (the rest is encrypted). Retransmissions that sniffers record are dropped. Pure.
struct LinkLayerTraceDecoder: Sendable {
    /// Advertising PDU types (Vol 6, Part B, 2.3).
    enum AdvertisingType {
        static let advInd: UInt8 = 0x0
        static let advDirectInd: UInt8 = 0x1
        static let advNonconnInd: UInt8 = 0x2
        /// SCAN_REQ on the primary channel; AUX_CONNECT_REQ (34-byte payload) on a secondary one.
        static let scanRequestOrAuxConnectRequest: UInt8 = 0x3
        static let scanResponse: UInt8 = 0x4
        static let connectInd: UInt8 = 0x5
        static let advScanInd: UInt8 = 0x6
    }

    /// LL Control PDU opcodes (Vol 6, Part B, 2.4.2).
    enum ControlOpcode {
        static let terminateInd: UInt8 = 0x02
        static let encryptionRequest: UInt8 = 0x03
        static let startEncryptionRequest: UInt8 = 0x05
    }

    private struct LinkState: Sendable {
        var reassemblers: [ATTSender?: ACLReassembler] = [:]
        /// The last non-empty data PDU (LLID and SN bits, payload), per direction.
        var lastPDU: [ATTSender?: [UInt8]] = [:]
    }

    private(set) var builder = SessionBuilder()
    private var advertisements = AdvertisementLog()
    private var links: [UInt32: LinkState] = [:]
    private var terminateSenderNoted = false

    mutating func receive(_ packet: LinkLayerRecordPacket, at time: Duration, record: Int) {
        if packet.isAdvertising {
            receiveAdvertising(packet, at: time, record: record)
        } else {
            receiveData(packet, at: time, record: record)
        }
    }

    private static func address(_ payload: [UInt8], at offset: Int) -> DeviceAddress? {
        guard offset + 6 <= payload.count else { return nil }
        return DeviceAddress(bytes: payload[offset..<offset + 6].reversed())
    }

    private mutating func receiveAdvertising(_ packet: LinkLayerRecordPacket, at time: Duration, record: Int) {
        let type = packet.header & 0x0F
        let payload = packet.payload
        switch type {
        case AdvertisingType.advInd, AdvertisingType.advDirectInd, AdvertisingType.advNonconnInd,
             AdvertisingType.advScanInd, AdvertisingType.scanResponse:
            guard let address = Self.address(payload, at: 0) else { return }
            let data = type == AdvertisingType.advDirectInd ? [] : Array(payload.dropFirst(6))
            advertisements.record(address: address, data: data, isScanResponse: type == AdvertisingType.scanResponse,
                                  isConnectable: type == AdvertisingType.advInd || type == AdvertisingType.advDirectInd,
                                  rssi: packet.rssi)
        case AdvertisingType.connectInd, AdvertisingType.scanRequestOrAuxConnectRequest:
            // InitA (6), AdvA (6), then LLData starting with the access address (4).
            guard payload.count == 34, let peer = Self.address(payload, at: 6),
                  let accessAddress = FileBytes.uint32(payload, at: 12, bigEndian: false) else { return }
            let key = SessionBuilder.Key(index: 0, handle: accessAddress)
            builder.open(key, CapturedConnection(peer: peer, handle: accessAddress, medium: .ble,
                                                 advertisement: advertisements.advertisement(of: peer)))
            links[accessAddress] = LinkState()
        default:
            break
        }
    }

    private mutating func receiveData(_ packet: LinkLayerRecordPacket, at time: Duration, record: Int) {
        let llid = packet.header & 0x03
        guard !packet.payload.isEmpty else { return }  // empty PDUs keep the link alive
        let key = SessionBuilder.Key(index: 0, handle: packet.accessAddress)
        if builder.isStopped(key) { return }
        var link = links[packet.accessAddress] ?? LinkState()
        defer { links[packet.accessAddress] = link }
        // A retransmission repeats the previous PDU of its direction with the same SN.
        let signature = [llid | packet.header & 0x08] + packet.payload
        if link.lastPDU[packet.sender] == signature { return }
        link.lastPDU[packet.sender] = signature
        switch llid {
        case 0x03:
            receiveControl(packet, key: key, at: time, record: record)
        case 0x01, 0x02:
            let fragment = ACLPacket(handle: 0, boundary: llid == 0x02 ? .firstFlushable : .continuation,
                                     data: packet.payload)
            var reassembler = link.reassemblers[packet.sender] ?? ACLReassembler()
            let outcome = reassembler.append(fragment)
            link.reassemblers[packet.sender] = reassembler
            switch outcome {
            case let .frame(bytes):
                guard let frame = try? L2CAPBasicFrame(bytes: bytes), frame.channel == .att else { return }
                builder.receiveATT(frame.payload, on: key, from: packet.sender, at: time, record: record)
            case .incomplete:
                break
            case let .discarded(reason):
                if builder.isOpen(key) {
                    builder.note("record \(record): connection \(SessionBuilder.name(key)): \(reason); left out")
                }
            }
        default:
            break
        }
    }

    private mutating func receiveControl(_ packet: LinkLayerRecordPacket, key: SessionBuilder.Key, at time: Duration,
                                         record: Int) {
        switch packet.payload[0] {
        case ControlOpcode.terminateInd:
            guard builder.isOpen(key) else { return }
            let reason = packet.payload.count > 1 ? packet.payload[1] : nil
            if packet.sender == nil, !terminateSenderNoted {
                terminateSenderNoted = true
                builder.note("record \(record): this capture does not say which side sent LL_TERMINATE_IND; "
                             + "the ending is taken as the client's")
            }
            builder.end(key, CapturedEnding(time: time, byDevice: packet.sender == .remoteOrPeripheral, reason: reason))
            links[packet.accessAddress] = nil
        case ControlOpcode.encryptionRequest, ControlOpcode.startEncryptionRequest:
            let name = packet.payload[0] == ControlOpcode.encryptionRequest ? "LL_ENC_REQ" : "LL_START_ENC_REQ"
            builder.stopDecoding(key, record: record, reason: "is encrypted from here (\(name))")
        default:
            break
        }
    }
}
