/// One LE link-layer packet as a pcap record holds it (Core spec Vol 6, Part B, 2.1: access
/// address, PDU header, payload, CRC), with what the record's pseudo-header adds.
struct LinkLayerRecordPacket: Sendable, Hashable {
    /// The access address of the advertising physical channel.
    static let advertisingAccessAddress: UInt32 = 0x8E89_BED6

    var accessAddress: UInt32
    /// The PDU header's first octet (type or LLID, SN, NESN, MD, CP / ChSel, TxAdd, RxAdd).
    var header: UInt8
    /// The payload (its length is the header's second octet); CTEInfo left out.
    var payload: [UInt8]
    /// Who sent it, where the pseudo-header says: `.localOrCentral` the central.
    var sender: ATTSender?
    /// dBm, 127 when unknown.
    var rssi: Int

    var isAdvertising: Bool { accessAddress == Self.advertisingAccessAddress }

    /// The packet of a pcap record of `linkType` (251, 256 or 272); nil when the record is too
    /// short, or its pseudo-header says the CRC was checked and is bad.
    init?(record: CaptureRecord, linkType: UInt32) {
        let bytes = record.bytes
        var start = 0
        sender = nil
        rssi = 127
        switch linkType {
        case 251:
            break
        case 256:
            // LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR: RF channel, signal power, noise power, access
            // address offenses, reference access address (4), flags (2, little-endian).
            guard let flags = FileBytes.uint16LittleEndian(bytes, at: 8) else { return nil }
            if flags & 0x0400 != 0, flags & 0x0800 == 0 { return nil }
            if flags & 0x0002 != 0 { rssi = Int(Int8(bitPattern: bytes[1])) }
            switch (flags >> 7) & 0x07 {
            case 2: sender = .localOrCentral
            case 3: sender = .remoteOrPeripheral
            default: break
            }
            start = 10
        case 272:
            // Nordic BLE sniffer: board ID, a 6-byte header (lengths, protocol version, packet
            // counter, packet ID), then the packet header: its length, flags (bit 0 CRC OK,
            // bit 1 central to peripheral), channel, RSSI (negated), event counter, time delta.
            guard bytes.count >= 11 else { return nil }
            let flags = bytes[8]
            if flags & 0x01 == 0 { return nil }
            rssi = -Int(bytes[10])
            start = 7 + max(Int(bytes[7]), 10)
            guard let aa = FileBytes.uint32(bytes, at: start, bigEndian: false) else { return nil }
            if aa != Self.advertisingAccessAddress {
                sender = flags & 0x02 != 0 ? .localOrCentral : .remoteOrPeripheral
            }
        default:
            return nil
        }
        guard let accessAddress = FileBytes.uint32(bytes, at: start, bigEndian: false), bytes.count >= start + 6 else {
            return nil
        }
        self.accessAddress = accessAddress
        header = bytes[start + 4]
        let length = Int(bytes[start + 5])
        var payloadStart = start + 6
        // A data PDU with the CP bit carries a CTEInfo octet after the header.
        if accessAddress != Self.advertisingAccessAddress, header & 0x20 != 0 { payloadStart += 1 }
        guard payloadStart + length <= bytes.count else { return nil }
        payload = Array(bytes[payloadStart..<payloadStart + length])
    }
}
