import DFUBytes

/// LE PHY Update Complete (subevent 0x0C, Vol 4, Part E, 7.7.65.12). PHY values: 1 = 1M,
/// 2 = 2M, 3 = Coded.
package struct LEPHYUpdateCompleteEvent: LEMetaSubeventParameters {
    package static let subeventCode: UInt8 = 0x0C
    package static let name = "LE PHY Update Complete"

    package var status: HCIStatus
    package var handle: UInt16
    package var txPHY: UInt8
    package var rxPHY: UInt8

    package init(status: HCIStatus, handle: UInt16, txPHY: UInt8, rxPHY: UInt8) {
        self.status = status
        self.handle = handle
        self.txPHY = txPHY
        self.rxPHY = rxPHY
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LEPHYUpdateCompleteEvent(status: HCIStatus(rawValue: try reader.readByte()),
                                     handle: try reader.readUInt16() & 0x0FFF,
                                     txPHY: try reader.readByte(), rxPHY: try reader.readByte())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 5)
        writer.append(byte: status.rawValue)
        writer.appendUInt16(handle)
        writer.append(byte: txPHY)
        writer.append(byte: rxPHY)
        return writer.bytes
    }
}
