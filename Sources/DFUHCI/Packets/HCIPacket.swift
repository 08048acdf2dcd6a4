/// One HCI packet: its type and its body (everything after the H4 indicator: the header and
/// the payload).
package struct HCIPacket: Sendable, Hashable, CustomStringConvertible {
    package var type: HCIPacketType
    /// Header and payload, without the H4 packet indicator.
    package var body: [UInt8]

    package init(type: HCIPacketType, body: [UInt8]) {
        self.type = type
        self.body = body
    }

    /// The packet as it travels on an H4 byte stream: indicator, then body.
    package var h4Bytes: [UInt8] { [type.rawValue] + body }

    /// Splits one complete H4 packet (indicator + body), e.g. a datagram from an HCI user
    /// channel socket.
    package init(h4Bytes bytes: [UInt8]) throws(HCIDecodeError) {
        guard let first = bytes.first else {
            throw HCIDecodeError("H4 packet", "empty packet")
        }
        self.init(type: HCIPacketType(rawValue: first), body: Array(bytes.dropFirst()))
    }

    package var description: String { "\(type) \(body.hexString)" }
}
