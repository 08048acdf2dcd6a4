import DFUBytes

/// ATT_FIND_INFORMATION_RSP (Core spec Vol 3, Part F, 3.4.3.2): "sent in reply to a received
/// ATT_FIND_INFORMATION_REQ PDU and contains information about this server".
package struct ATTFindInformationResponse: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.findInformationResponse

    /// Format: "the format of the information data".
    package enum Format: UInt8, Sendable, Hashable {
        /// "A list of 1 or more handles with their 16-bit Bluetooth UUIDs".
        case uuid16 = 0x01
        /// "A list of 1 or more handles with their 128-bit UUIDs".
        case uuid128 = 0x02

        var uuidLength: Int { self == .uuid16 ? 2 : 16 }
    }

    /// One element of the Information Data: a handle and the attribute's type.
    package struct Information: Sendable, Hashable {
        package var handle: UInt16
        package var type: BluetoothUUID

        package init(handle: UInt16, type: BluetoothUUID) {
            self.handle = handle
            self.type = type
        }
    }

    package let format: Format
    /// Information Data: "the information data whose format is determined by the Format field".
    package let information: [Information]

    /// Format 0x01 when every type is a 16-bit SIG UUID, 0x02 otherwise.
    package init(information: [Information]) {
        self.information = information
        self.format = information.allSatisfy { $0.type.uuid16 != nil } ? .uuid16 : .uuid128
    }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        let formatByte = try reader.byte()
        guard let format = Format(rawValue: formatByte) else {
            throw .invalidFormat(Self.opcode, format: formatByte)
        }
        self.format = format
        information = try reader.list(elementLength: 2 + format.uuidLength) { reader throws(ATTDecodingError) in
            let handle = try reader.uint16()
            let uuidBytes = try reader.bytes(count: format.uuidLength)
            guard let type = BluetoothUUID(littleEndianBytes: uuidBytes) else {
                throw .invalidUUIDLength(Self.opcode, offset: reader.offset - uuidBytes.count, length: uuidBytes.count)
            }
            return Information(handle: handle, type: type)
        }
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 2 + information.count * (2 + format.uuidLength))
        writer.byte(format.rawValue)
        for element in information {
            writer.uint16(element.handle)
            // `format` is .uuid16 only when every type has a 16-bit form.
            writer.bytes(format == .uuid16 ? element.type.littleEndianBytes : Array(element.type.bytes.reversed()))
        }
        return writer.bytes
    }
}
