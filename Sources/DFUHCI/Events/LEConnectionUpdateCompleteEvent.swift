import DFUBytes

/// LE Connection Update Complete (subevent 0x03, Vol 4, Part E, 7.7.65.3).
package struct LEConnectionUpdateCompleteEvent: LEMetaSubeventParameters {
    package static let subeventCode: UInt8 = 0x03
    package static let name = "LE Connection Update Complete"

    package var status: HCIStatus
    package var handle: UInt16
    /// 1.25 ms units.
    package var interval: UInt16
    package var latency: UInt16
    /// 10 ms units.
    package var supervisionTimeout: UInt16

    package init(status: HCIStatus, handle: UInt16, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.status = status
        self.handle = handle
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LEConnectionUpdateCompleteEvent(status: HCIStatus(rawValue: try reader.readByte()),
                                            handle: try reader.readUInt16() & 0x0FFF,
                                            interval: try reader.readUInt16(), latency: try reader.readUInt16(),
                                            supervisionTimeout: try reader.readUInt16())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 9)
        writer.append(byte: status.rawValue)
        writer.appendUInt16(handle)
        writer.appendUInt16(interval)
        writer.appendUInt16(latency)
        writer.appendUInt16(supervisionTimeout)
        return writer.bytes
    }
}
