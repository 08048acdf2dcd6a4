import DFUBytes

/// Encryption Change (0x08, Vol 4, Part E, 7.7.8): whether encryption of a link is now on.
package struct EncryptionChangeEvent: HCIEventParameters {
    package static let code: UInt8 = 0x08
    package static let name = "Encryption Change"

    package var status: HCIStatus
    package var handle: UInt16
    /// 0x00 off, 0x01 on (AES-CCM for LE).
    package var encryptionEnabled: UInt8

    package init(status: HCIStatus = .success, handle: UInt16, encryptionEnabled: UInt8) {
        self.status = status
        self.handle = handle
        self.encryptionEnabled = encryptionEnabled
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            EncryptionChangeEvent(status: HCIStatus(rawValue: try reader.readByte()),
                                  handle: try reader.readUInt16() & 0x0FFF, encryptionEnabled: try reader.readByte())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 4)
        writer.append(byte: status.rawValue)
        writer.appendUInt16(handle)
        writer.append(byte: encryptionEnabled)
        return writer.bytes
    }
}
