import DFUGATT
import DFUHCI

/// Reads HCI packets with their direction, as btsnoop and pcap 201 captures hold them, into
/// connections: LE (Enhanced) Connection Complete opens one, Disconnection Complete ends it,
/// advertising reports give the peer's advertisement, ACL packets are reassembled into L2CAP
/// frames whose ATT channel goes to the connection's conversation. Pure: fed one packet at a
/// time, it never fails; what it cannot read becomes a note.
struct HCITraceDecoder: Sendable {
    /// LE Enhanced Connection Complete v2 (Core 5.4, Vol 4, Part E, 7.7.65.10): v1's fields
    /// then Advertising_Handle and Sync_Handle.
    static let enhancedConnectionCompleteV2: UInt8 = 0x29

    private(set) var builder = SessionBuilder()
    private var advertisements = AdvertisementLog()
    private var reassemblers: [SessionBuilder.Key: ACLReassembler] = [:]
    /// Handles the host asked to disconnect (HCI_Disconnect), by controller index.
    private var hostDisconnects: Set<SessionBuilder.Key> = []
    /// The host's own address, for captures taken at the device's HCI.
    private var localAddresses = LocalAddressLog()
    /// Connections where the host is the peripheral: the capture was taken at the device.
    private var hostIsPeripheral: Set<SessionBuilder.Key> = []
    private var undecodable = 0

    /// Takes one packet: `sent` is host to controller; `index` the controller (0 where the
    /// format has one controller).
    mutating func receive(_ packet: HCIPacket, sent: Bool, index: UInt16, at time: Duration, record: Int) {
        switch packet.type {
        case .command: receiveCommand(packet, index: index, record: record)
        case .event: receiveEvent(packet, index: index, at: time, record: record)
        case .acl: receiveACL(packet, sent: sent, index: index, at: time, record: record)
        default: break
        }
    }

    private mutating func undecodable(_ record: Int, _ reason: String) {
        undecodable += 1
        if undecodable <= 10 { builder.note("record \(record): \(reason); left out") }
    }

    private mutating func receiveCommand(_ packet: HCIPacket, index: UInt16, record: Int) {
        guard let command = try? HCICommandPacket(packet: packet) else { return }
        localAddresses.command(command.opcode.rawValue, parameters: command.parameters, index: index)
        guard command.opcode == DisconnectCommand.opcode else { return }
        do {
            let disconnect = try command.decode(as: DisconnectCommand.self)
            hostDisconnects.insert(SessionBuilder.Key(index: index, handle: UInt32(disconnect.handle & 0x0FFF)))
        } catch {
            undecodable(record, error.description)
        }
    }

    private mutating func receiveEvent(_ packet: HCIPacket, index: UInt16, at time: Duration, record: Int) {
        let event: HCIEvent
        do {
            event = try HCIEvent(packet: packet)
        } catch {
            return undecodable(record, error.description)
        }
        switch event {
        case let .commandComplete(complete):
            localAddresses.commandComplete(complete.opcode.rawValue, returnParameters: complete.returnParameters, index: index)
        case let .leConnectionComplete(complete):
            connected(complete, index: index, record: record)
        case let .leMetaOther(subevent, parameters) where subevent == Self.enhancedConnectionCompleteV2:
            do {
                connected(try LEConnectionCompleteEvent(parameters: parameters, enhanced: true), index: index,
                          record: record)
            } catch {
                undecodable(record, error.description)
            }
        case let .disconnectionComplete(disconnection):
            guard disconnection.status == .success else { return }
            let key = SessionBuilder.Key(index: index, handle: UInt32(disconnection.handle))
            let byHost = hostDisconnects.remove(key) != nil
            // Taken at the device's own HCI, the host that disconnected is the device.
            let hostIsDevice = hostIsPeripheral.remove(key) != nil
            builder.end(key, CapturedEnding(time: time, byDevice: byHost == hostIsDevice, reason: disconnection.reason.rawValue))
            reassemblers[key] = nil
        case let .leAdvertisingReport(report):
            for report in report.reports {
                advertisements.record(address: report.address, data: report.data,
                                      isScanResponse: report.eventType == .scanResponse,
                                      isConnectable: report.eventType.isConnectable, rssi: Int(report.rssi))
            }
        case let .leExtendedAdvertisingReport(report):
            for report in report.reports {
                advertisements.record(address: report.address, data: report.data,
                                      isScanResponse: report.eventType.contains(.scanResponse),
                                      isConnectable: report.eventType.contains(.connectable), rssi: Int(report.rssi))
            }
        default:
            break
        }
    }

    private mutating func connected(_ complete: LEConnectionCompleteEvent, index: UInt16, record: Int) {
        guard complete.status == .success else { return }
        let key = SessionBuilder.Key(index: index, handle: UInt32(complete.handle))
        // The host is the peripheral: the capture was taken at the device (the one updated);
        // the event names the phone, so the device is the host's own address.
        let device = complete.role == .peripheral ? localAddresses.address(index: index) : complete.peerAddress
        if complete.role == .peripheral {
            hostIsPeripheral.insert(key)
            builder.note("record \(record): the capture was taken at the device's own HCI (it is the peripheral); "
                         + "the device is " + (device.map { "\($0), the address it set" } ?? "unnamed: its address is not in the capture")
                         + ", the client \(complete.peerAddress)")
        }
        builder.open(key, CapturedConnection(peer: device, handle: UInt32(complete.handle), medium: .ble,
                                             advertisement: device.flatMap { advertisements.advertisement(of: $0) }))
        reassemblers[key] = nil
        hostDisconnects.remove(key)
    }

    private mutating func receiveACL(_ packet: HCIPacket, sent: Bool, index: UInt16, at time: Duration, record: Int) {
        let acl: ACLPacket
        do {
            acl = try ACLPacket(packet: packet)
        } catch {
            return undecodable(record, error.description)
        }
        // Each direction has its own fragments in flight.
        let key = SessionBuilder.Key(index: index, handle: UInt32(acl.handle))
        let directionKey = SessionBuilder.Key(index: index | (sent ? 0x8000 : 0), handle: UInt32(acl.handle))
        var reassembler = reassemblers[directionKey] ?? ACLReassembler()
        let outcome = reassembler.append(acl)
        reassemblers[directionKey] = reassembler
        switch outcome {
        case let .frame(bytes):
            guard let frame = try? L2CAPBasicFrame(bytes: bytes), frame.channel == .att else { return }
            builder.receiveATT(frame.payload, on: key, from: sent ? .localOrCentral : .remoteOrPeripheral, at: time,
                               record: record)
        case .incomplete:
            break
        case let .discarded(reason):
            // A capture that starts mid-frame begins with a continuation: not worth a note.
            if builder.isOpen(key) { undecodable(record, "ACL on handle \(acl.handle): \(reason)") }
        }
    }
}
