import DFUBytes
import DFUGATT

// Every multi-byte HCI, L2CAP and advertising field is little-endian.

extension ByteReader {
    mutating func readUInt16() throws(ByteReaderError) -> UInt16 {
        UInt16(try readUnsigned(width: 2, endianness: .little))
    }

    mutating func readUInt32() throws(ByteReaderError) -> UInt32 {
        UInt32(try readUnsigned(width: 4, endianness: .little))
    }

    /// A device address: six bytes, least significant first on the wire.
    mutating func readAddress() throws(ByteReaderError) -> DeviceAddress {
        let wire = try readBytes(count: 6)
        return DeviceAddress(bytes: wire.reversed())!
    }
}

extension ByteWriter {
    mutating func appendUInt16(_ value: UInt16) { append(value, endianness: .little) }
    mutating func appendUInt32(_ value: UInt32) { append(value, endianness: .little) }
    mutating func append(address: DeviceAddress) { append(bytes: address.bytes.reversed()) }
}

func hexByte(_ value: UInt8) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return value < 0x10 ? "0" + text : text
}

func hexWord(_ value: UInt16) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - text.count) + text
}
