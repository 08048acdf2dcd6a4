import DFUBytes

/// Disconnection Complete (0x05, Vol 4, Part E, 7.7.5).
package struct DisconnectionCompleteEvent: HCIEventParameters {
    package static let code: UInt8 = 0x05
    package static let name = "Disconnection Complete"

    package var status: HCIStatus
    package var handle: UInt16
    /// Why the link went away, e.g. Connection Timeout (0x08) or Remote User Terminated (0x13).
    package var reason: HCIStatus

    package init(status: HCIStatus = .success, handle: UInt16, reason: HCIStatus) {
        self.status = status
        self.handle = handle
        self.reason = reason
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            DisconnectionCompleteEvent(status: HCIStatus(rawValue: try reader.readByte()),
                                       handle: try reader.readUInt16() & 0x0FFF,
                                       reason: HCIStatus(rawValue: try reader.readByte()))
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 4)
        writer.append(byte: status.rawValue)
        writer.appendUInt16(handle)
        writer.append(byte: reason.rawValue)
        return writer.bytes
    }
}
