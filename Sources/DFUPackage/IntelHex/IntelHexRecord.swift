/// One line of an Intel HEX file: `:LLAAAATT<data>CC`.
///
/// `LL` is the data length, `AAAA` a big-endian 16-bit offset, `TT` the record type and `CC`
/// the two's complement of the sum of all preceding bytes, so all bytes sum to zero.
package struct IntelHexRecord: Sendable, Equatable {
    package let type: IntelHexRecordType
    package let offset: UInt16
    package let data: [UInt8]

    package init(type: IntelHexRecordType, offset: UInt16, data: [UInt8]) {
        self.type = type
        self.offset = offset
        self.data = data
    }

    /// Decodes one line (without its line terminator).
    /// - Throws: a description of the problem; the caller adds the file and line.
    package static func decode(_ line: some Collection<UInt8>) throws(IntelHexLineProblem) -> IntelHexRecord {
        guard line.first == UInt8(ascii: ":") else {
            throw IntelHexLineProblem("line does not start with ':'")
        }
        let hex = line.dropFirst()
        guard hex.count % 2 == 0 else {
            throw IntelHexLineProblem("odd number of hex digits (\(hex.count))")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var high: UInt8?
        for (position, character) in hex.enumerated() {
            guard let nibble = hexValue(character) else {
                throw IntelHexLineProblem("'\(Character(Unicode.Scalar(character)))' at column \(position + 2) is not a hex digit")
            }
            if let highNibble = high {
                bytes.append(highNibble << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard bytes.count >= 5 else {
            throw IntelHexLineProblem("record too short (\(bytes.count) bytes, at least 5 needed)")
        }
        let length = Int(bytes[0])
        guard bytes.count == length + 5 else {
            throw IntelHexLineProblem("length field says \(length) data bytes, the record holds \(bytes.count - 5)")
        }
        let sum = bytes.dropLast().reduce(UInt8(0), &+)
        let expected = 0 &- sum
        guard bytes[bytes.count - 1] == expected else {
            throw IntelHexLineProblem("checksum is \(hex2(bytes[bytes.count - 1])), expected \(hex2(expected))")
        }
        guard let type = IntelHexRecordType(rawValue: bytes[3]) else {
            throw IntelHexLineProblem("unknown record type \(hex2(bytes[3]))")
        }
        if let required = type.requiredLength, required != length {
            throw IntelHexLineProblem("record type \(hex2(type.rawValue)) needs \(required) data bytes, has \(length)")
        }
        return IntelHexRecord(type: type, offset: UInt16(bytes[1]) << 8 | UInt16(bytes[2]),
                              data: Array(bytes[4..<(4 + length)]))
    }

    /// The record's data read as a big-endian unsigned integer (for address records).
    var bigEndianValue: UInt32 {
        data.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

fileprivate func hex2(_ byte: UInt8) -> String {
    let text = String(byte, radix: 16, uppercase: true)
    return "0x" + (text.count == 1 ? "0" + text : text)
}

/// Why one Intel HEX line is invalid; `IntelHexReader` turns it into `PackageError.badIntelHex`.
package struct IntelHexLineProblem: Error, Sendable, Equatable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
