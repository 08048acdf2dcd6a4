import DFUBytes

/// An L2CAP basic frame (B-frame, Core spec Vol 3, Part A, 3.1): payload length, channel ID,
/// payload.
package struct L2CAPBasicFrame: Sendable, Hashable {
    package var channel: L2CAPChannelID
    package var payload: [UInt8]

    package init(channel: L2CAPChannelID, payload: [UInt8]) {
        precondition(payload.count <= 0xFFFF, "an L2CAP payload is at most 65535 bytes")
        self.channel = channel
        self.payload = payload
    }

    package init(bytes: [UInt8]) throws(HCIDecodeError) {
        let (length, channel) = try decodeParameters("L2CAP frame", bytes) { reader throws(ByteReaderError) in
            (Int(try reader.readUInt16()), try reader.readUInt16())
        }
        guard bytes.count - 4 == length else {
            throw HCIDecodeError("L2CAP frame", "header says \(length) byte(s) of payload, \(bytes.count - 4) present")
        }
        self.channel = L2CAPChannelID(rawValue: channel)
        self.payload = Array(bytes[4...])
    }

    package var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 4 + payload.count)
        writer.appendUInt16(UInt16(payload.count))
        writer.appendUInt16(channel.rawValue)
        writer.append(bytes: payload)
        return writer.bytes
    }
}
