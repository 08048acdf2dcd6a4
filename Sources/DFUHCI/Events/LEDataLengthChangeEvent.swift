import DFUBytes

/// LE Data Length Change (subevent 0x07, Vol 4, Part E, 7.7.65.7): the link-layer payload sizes
/// now in force.
package struct LEDataLengthChangeEvent: LEMetaSubeventParameters {
    package static let subeventCode: UInt8 = 0x07
    package static let name = "LE Data Length Change"

    package var handle: UInt16
    package var maxTxOctets: UInt16
    package var maxTxTime: UInt16
    package var maxRxOctets: UInt16
    package var maxRxTime: UInt16

    package init(handle: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16) {
        self.handle = handle
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
        self.maxRxOctets = maxRxOctets
        self.maxRxTime = maxRxTime
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LEDataLengthChangeEvent(handle: try reader.readUInt16() & 0x0FFF, maxTxOctets: try reader.readUInt16(),
                                    maxTxTime: try reader.readUInt16(), maxRxOctets: try reader.readUInt16(),
                                    maxRxTime: try reader.readUInt16())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 10)
        writer.appendUInt16(handle)
        writer.appendUInt16(maxTxOctets)
        writer.appendUInt16(maxTxTime)
        writer.appendUInt16(maxRxOctets)
        writer.appendUInt16(maxRxTime)
        return writer.bytes
    }
}
