import DFUBytes

/// Number Of Completed Packets (0x13, Vol 4, Part E, 7.7.19): ACL buffers the controller freed,
/// per connection; each one is a credit back to the host. Arrays are interleaved
/// (handle, count, handle, count...), as Bumble and Linux encode them.
package struct NumberOfCompletedPacketsEvent: HCIEventParameters {
    package static let code: UInt8 = 0x13
    package static let name = "Number Of Completed Packets"

    package struct Entry: Sendable, Hashable {
        package var handle: UInt16
        package var completedPackets: UInt16

        package init(handle: UInt16, completedPackets: UInt16) {
            self.handle = handle
            self.completedPackets = completedPackets
        }
    }

    package var entries: [Entry]

    package init(entries: [Entry]) { self.entries = entries }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        entries = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            let count = Int(try reader.readByte())
            var entries: [Entry] = []
            for _ in 0..<count {
                entries.append(Entry(handle: try reader.readUInt16() & 0x0FFF, completedPackets: try reader.readUInt16()))
            }
            return entries
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 1 + 4 * entries.count)
        writer.append(byte: UInt8(entries.count))
        for entry in entries {
            writer.appendUInt16(entry.handle)
            writer.appendUInt16(entry.completedPackets)
        }
        return writer.bytes
    }
}
