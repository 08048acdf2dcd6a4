import DFUGATT

/// What the controller told the kernel about each LE connection, read from the HCI events a raw
/// HCI socket sees (the kernel gives a raw socket a copy of every event): LE Connection Complete
/// and Enhanced Connection Complete, Connection Update Complete, Data Length Change, PHY Update
/// Complete, Disconnection Complete. A pure fold of the packets, as read(2) returns them (packet
/// type 0x04, event code, length, parameters); anything else is ignored.
struct HCILinkEventLog: Sendable {
    /// One connection's values as the last events set them.
    struct Link: Sendable, Hashable {
        var handle: UInt16
        /// 1.25 ms units.
        var interval: UInt16
        var latency: UInt16
        /// 10 ms units.
        var supervisionTimeout: UInt16
        var txOctets: Int?
        var rxOctets: Int?
        var txTime: Int?
        var rxTime: Int?
        /// HCI PHY numbers (1 1M, 2 2M, 3 Coded); nil until a PHY Update Complete.
        var txPHY: UInt8?
        var rxPHY: UInt8?
    }

    /// Live connections by peer address.
    private(set) var links: [DeviceAddress: Link] = [:]

    mutating func handle(_ packet: [UInt8]) {
        guard packet.count >= 3, packet[0] == 0x04, Int(packet[2]) == packet.count - 3 else { return }
        let parameters = Array(packet[3...])
        switch packet[1] {
        case 0x05 where parameters.count >= 4 && parameters[0] == 0:
            let handle = word(parameters, 1) & 0x0FFF
            links = links.filter { $0.value.handle != handle }
        case 0x3E where !parameters.isEmpty:
            handleLEMeta(subevent: parameters[0], Array(parameters[1...]))
        default:
            break
        }
    }

    private mutating func handleLEMeta(subevent: UInt8, _ p: [UInt8]) {
        switch subevent {
        case 0x01 where p.count >= 18, 0x0A where p.count >= 30, 0x29 where p.count >= 30:
            // Status, Handle, Role, Peer_Address_Type, Peer_Address; the enhanced event then has
            // the two resolvable private addresses (12 bytes) before the interval.
            guard p[0] == 0, let peer = DeviceAddress(bytes: Array(p[5..<11].reversed())) else { return }
            let at = subevent == 0x01 ? 11 : 23
            links[peer] = Link(handle: word(p, 1) & 0x0FFF, interval: word(p, at), latency: word(p, at + 2),
                               supervisionTimeout: word(p, at + 4))
        case 0x03 where p.count >= 9 && p[0] == 0:
            update(handle: word(p, 1)) {
                $0.interval = word(p, 3)
                $0.latency = word(p, 5)
                $0.supervisionTimeout = word(p, 7)
            }
        case 0x07 where p.count >= 10:
            update(handle: word(p, 0)) {
                $0.txOctets = Int(word(p, 2))
                $0.txTime = Int(word(p, 4))
                $0.rxOctets = Int(word(p, 6))
                $0.rxTime = Int(word(p, 8))
            }
        case 0x0C where p.count >= 5 && p[0] == 0:
            update(handle: word(p, 1)) {
                $0.txPHY = p[3]
                $0.rxPHY = p[4]
            }
        default:
            break
        }
    }

    private mutating func update(handle: UInt16, _ change: (inout Link) -> Void) {
        guard let peer = links.first(where: { $0.value.handle == handle & 0x0FFF })?.key else { return }
        change(&links[peer]!)
    }

}

private func word(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
    UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
}
