/// Cuts an H4 byte stream (TCP, UNIX socket, UART) into HCI packets.
///
/// A byte that is not an accepted packet indicator, or a header announcing an implausible
/// length, is garbage: it is skipped (and counted) and decoding resynchronises on the next
/// byte. A pure value: feed it bytes in any slicing, it returns whole packets.
package struct H4StreamDecoder: Sendable {
    /// Indicators accepted; a host receives ACL, SCO, event and ISO packets.
    package var acceptedTypes: Set<HCIPacketType>
    /// ACL payloads longer than this are taken for garbage (LE controllers send at most 251).
    package var maximumACLLength: Int
    /// Bytes skipped while resynchronising since the decoder was made.
    package private(set) var discardedByteCount = 0

    private var buffer: [UInt8] = []

    package init(acceptedTypes: Set<HCIPacketType> = [.acl, .synchronous, .event, .iso],
                maximumACLLength: Int = 4096) {
        self.acceptedTypes = acceptedTypes
        self.maximumACLLength = maximumACLLength
    }

    /// Bytes received but not yet part of a whole packet.
    package var pendingByteCount: Int { buffer.count }

    /// Appends `bytes` and returns every packet completed by them, in order.
    package mutating func append<Bytes: Sequence>(_ bytes: Bytes) -> [HCIPacket] where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        var packets: [HCIPacket] = []
        var start = 0
        while start < buffer.count {
            switch frameLength(at: start) {
            case .garbage:
                discardedByteCount += 1
                start += 1
            case .needMoreBytes:
                buffer.removeFirst(start)
                return packets
            case let .complete(length):
                packets.append(HCIPacket(type: HCIPacketType(rawValue: buffer[start]),
                                         body: Array(buffer[start + 1..<start + length])))
                start += length
            }
        }
        buffer.removeAll(keepingCapacity: true)
        return packets
    }

    private enum Frame {
        case garbage
        case needMoreBytes
        /// Whole packet length including the indicator.
        case complete(Int)
    }

    /// How long the packet starting at `start` is, if its indicator and header make sense.
    private func frameLength(at start: Int) -> Frame {
        let type = HCIPacketType(rawValue: buffer[start])
        guard acceptedTypes.contains(type) else { return .garbage }
        let available = buffer.count - start - 1
        let headerLength: Int
        switch type {
        case .command, .synchronous: headerLength = 3
        case .event: headerLength = 2
        case .acl, .iso: headerLength = 4
        default: return .garbage
        }
        guard available >= headerLength else { return .needMoreBytes }
        let header = start + 1
        let payloadLength: Int
        switch type {
        case .command, .synchronous:
            payloadLength = Int(buffer[header + 2])
        case .event:
            // Event code 0x00 is not assigned: a stream of zeros is noise, not events.
            guard buffer[header] != 0x00 else { return .garbage }
            payloadLength = Int(buffer[header + 1])
        case .iso:
            payloadLength = Int(buffer[header + 2]) | Int(buffer[header + 3] & 0x3F) << 8
        default:
            payloadLength = Int(buffer[header + 2]) | Int(buffer[header + 3]) << 8
            guard payloadLength <= maximumACLLength else { return .garbage }
        }
        let total = 1 + headerLength + payloadLength
        return available + 1 >= total ? .complete(total) : .needMoreBytes
    }
}
