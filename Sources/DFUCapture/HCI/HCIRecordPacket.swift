import DFUHCI

/// One HCI packet as a capture record holds it: the packet, its direction and the controller.
struct HCIRecordPacket: Sendable, Hashable {
    var packet: HCIPacket
    /// Host to controller.
    var sent: Bool
    /// The controller index (btmon captures); 0 elsewhere.
    var index: UInt16

    /// A btsnoop record of `datalink`; nil for records that carry no HCI packet (btmon's index
    /// and log records) or that are empty.
    init?(btsnoop record: CaptureRecord, datalink: UInt32) {
        let flags = record.flags
        switch datalink {
        case 1001:
            // Flags: bit 0 controller to host, bit 1 command or event (else ACL).
            sent = flags & 0x01 == 0
            let type: HCIPacketType = flags & 0x02 != 0 ? (sent ? .command : .event) : .acl
            packet = HCIPacket(type: type, body: record.bytes)
            index = 0
        case 1002:
            guard let first = record.bytes.first else { return nil }
            sent = flags & 0x01 == 0
            packet = HCIPacket(type: HCIPacketType(rawValue: first), body: Array(record.bytes.dropFirst()))
            index = 0
        case 2001:
            guard let (type, sent) = Self.monitorPacket(opcode: UInt16(flags & 0xFFFF)) else { return nil }
            self.sent = sent
            packet = HCIPacket(type: type, body: record.bytes)
            index = UInt16(flags >> 16)
        default:
            return nil
        }
    }

    /// A pcap 201 record (LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR): a 4-byte big-endian direction
    /// (0 sent, 1 received), then the H4 packet.
    init?(pcapH4WithDirection record: CaptureRecord) {
        guard record.bytes.count >= 5, let direction = FileBytes.uint32(record.bytes, at: 0, bigEndian: true) else {
            return nil
        }
        sent = direction & 0x01 == 0
        packet = HCIPacket(type: HCIPacketType(rawValue: record.bytes[4]), body: Array(record.bytes[5...]))
        index = 0
    }

    /// The packet type and direction of a Linux monitor (datalink 2001) opcode, as BlueZ's
    /// src/shared/btsnoop.h numbers them (BTSNOOP_OPCODE_*): 2 command, 3 event, 4 ACL TX,
    /// 5 ACL RX, 6 SCO TX, 7 SCO RX, 18 ISO TX, 19 ISO RX. The others (0 new index, 1 delete
    /// index, 8-17 open/close/info/vendor diagnostics/system note/user logging/control
    /// channel) carry no HCI packet.
    static func monitorPacket(opcode: UInt16) -> (HCIPacketType, sent: Bool)? {
        switch opcode {
        case 2: return (.command, true)
        case 3: return (.event, false)
        case 4: return (.acl, true)
        case 5: return (.acl, false)
        case 6: return (.synchronous, true)
        case 7: return (.synchronous, false)
        case 18: return (.iso, true)
        case 19: return (.iso, false)
        default: return nil
        }
    }
}
