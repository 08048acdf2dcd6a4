import DFUBytes

/// One HCI ACL Data packet (Core spec Vol 4, Part E, 5.4.2): a 12-bit connection handle, the
/// packet boundary and broadcast flags, a 16-bit length, then the data (a whole L2CAP frame or a
/// fragment of one).
package struct ACLPacket: Sendable, Hashable, CustomStringConvertible {
    /// Packet_Boundary_Flag.
    package struct Boundary: RawRepresentable, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue & 0x03 }
        /// First fragment of a non-flushable L2CAP frame: what an LE host sends.
        package static let firstNonFlushable = Boundary(rawValue: 0b00)
        /// A continuation fragment.
        package static let continuation = Boundary(rawValue: 0b01)
        /// First fragment of a flushable L2CAP frame: what an LE controller sends.
        package static let firstFlushable = Boundary(rawValue: 0b10)

        package var isFirst: Bool { self == .firstNonFlushable || self == .firstFlushable }
    }

    package var handle: UInt16
    package var boundary: Boundary
    /// Broadcast_Flag (0 on LE).
    package var broadcast: UInt8
    package var data: [UInt8]

    package init(handle: UInt16, boundary: Boundary, broadcast: UInt8 = 0, data: [UInt8]) {
        precondition(handle <= 0x0EFF, "connection handles are 12 bits (0x0000-0x0EFF)")
        self.handle = handle
        self.boundary = boundary
        self.broadcast = broadcast & 0x03
        self.data = data
    }

    package init(packet: HCIPacket) throws(HCIDecodeError) {
        guard packet.type == .acl else {
            throw HCIDecodeError("ACL packet", "packet type is \(packet.type)")
        }
        let (header, length) = try decodeParameters("ACL packet", packet.body) { reader throws(ByteReaderError) in
            (try reader.readUInt16(), Int(try reader.readUInt16()))
        }
        guard packet.body.count - 4 == length else {
            throw HCIDecodeError("ACL packet", "header says \(length) byte(s) of data, \(packet.body.count - 4) present")
        }
        handle = header & 0x0FFF
        boundary = Boundary(rawValue: UInt8(header >> 12 & 0x03))
        broadcast = UInt8(header >> 14 & 0x03)
        data = Array(packet.body[4...])
    }

    package var packet: HCIPacket {
        var writer = ByteWriter(capacity: 4 + data.count)
        writer.appendUInt16(handle | UInt16(boundary.rawValue) << 12 | UInt16(broadcast) << 14)
        writer.appendUInt16(UInt16(data.count))
        writer.append(bytes: data)
        return HCIPacket(type: .acl, body: writer.bytes)
    }

    package var description: String {
        "ACL handle 0x\(hexWord(handle)) PB \(boundary.rawValue) \(data.count) byte(s)"
    }
}
