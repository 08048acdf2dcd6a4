import DFUBytes

/// HCI_LE_Enable_Encryption (Vol 4, Part E, 7.8.24): the central starts encryption with a key.
/// Answered by Command Status; the outcome is an Encryption Change event. After LE legacy
/// pairing the key is the STK with Random_Number and EDIV 0.
package struct LEEnableEncryptionCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0019)
    package static let name = "LE Enable Encryption"
    package static let completion = HCICommandCompletion.commandStatus

    package var handle: UInt16
    package var randomNumber: UInt64
    package var encryptedDiversifier: UInt16
    /// Long_Term_Key, 16 bytes least significant first.
    package var longTermKey: [UInt8]

    package init(handle: UInt16, randomNumber: UInt64 = 0, encryptedDiversifier: UInt16 = 0, longTermKey: [UInt8]) {
        self.handle = handle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
        self.longTermKey = longTermKey
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LEEnableEncryptionCommand(handle: try reader.readUInt16(),
                                      randomNumber: try reader.readUnsigned(width: 8, endianness: .little),
                                      encryptedDiversifier: try reader.readUInt16(), longTermKey: try reader.readBytes(count: 16))
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 28)
        writer.appendUInt16(handle)
        writer.append(randomNumber, width: 8, endianness: .little)
        writer.appendUInt16(encryptedDiversifier)
        writer.append(bytes: longTermKey)
        return writer.bytes
    }
}
