import DFUATT
import DFUBytes

// The ATT PDUs a capture reader needs that DFUATT's client never sends or receives, so they
// have no type there. Each decoder mirrors the spec's field list; nil when malformed.

/// ATT_PREPARE_WRITE_REQ (Core spec Vol 3, Part F, 3.4.6.1): Attribute Handle, Value Offset,
/// Part Attribute Value.
struct ATTPrepareWriteRequest: Sendable, Hashable {
    var attributeHandle: UInt16
    var valueOffset: UInt16
    var partAttributeValue: [UInt8]

    init?(bytes: [UInt8]) {
        guard bytes.count >= 5, bytes[0] == ATTOpcode.prepareWriteRequest.rawValue else { return nil }
        attributeHandle = UInt16(bytes[1]) | UInt16(bytes[2]) << 8
        valueOffset = UInt16(bytes[3]) | UInt16(bytes[4]) << 8
        partAttributeValue = Array(bytes[5...])
    }
}

/// ATT_EXECUTE_WRITE_REQ (3.4.6.3): Flags, 0x00 cancel all prepared writes, 0x01 write them all.
struct ATTExecuteWriteRequest: Sendable, Hashable {
    var flags: UInt8

    init?(bytes: [UInt8]) {
        guard bytes.count == 2, bytes[0] == ATTOpcode.executeWriteRequest.rawValue else { return nil }
        flags = bytes[1]
    }
}

/// ATT_FIND_BY_TYPE_VALUE_REQ (3.4.3.3): Starting Handle, Ending Handle, Attribute Type
/// (16-bit), Attribute Value. GATT's Discover Primary Service by Service UUID sends it with type
/// 0x2800 and the service UUID as the value.
struct ATTFindByTypeValueRequest: Sendable, Hashable {
    var startingHandle: UInt16
    var endingHandle: UInt16
    var attributeType: UInt16
    var attributeValue: [UInt8]

    init?(bytes: [UInt8]) {
        guard bytes.count >= 7, bytes[0] == ATTOpcode.findByTypeValueRequest.rawValue else { return nil }
        startingHandle = UInt16(bytes[1]) | UInt16(bytes[2]) << 8
        endingHandle = UInt16(bytes[3]) | UInt16(bytes[4]) << 8
        attributeType = UInt16(bytes[5]) | UInt16(bytes[6]) << 8
        attributeValue = Array(bytes[7...])
    }
}

/// ATT_FIND_BY_TYPE_VALUE_RSP (3.4.3.4): a list of Found Attribute Handle and Group End Handle.
struct ATTFindByTypeValueResponse: Sendable, Hashable {
    var handlesInformation: [(found: UInt16, groupEnd: UInt16)]

    init?(bytes: [UInt8]) {
        guard bytes.count >= 5, (bytes.count - 1) % 4 == 0,
              bytes[0] == ATTOpcode.findByTypeValueResponse.rawValue else { return nil }
        handlesInformation = stride(from: 1, to: bytes.count, by: 4).map { start in
            (UInt16(bytes[start]) | UInt16(bytes[start + 1]) << 8,
             UInt16(bytes[start + 2]) | UInt16(bytes[start + 3]) << 8)
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.handlesInformation.elementsEqual(rhs.handlesInformation) { $0 == $1 }
    }

    func hash(into hasher: inout Hasher) {
        for element in handlesInformation {
            hasher.combine(element.found)
            hasher.combine(element.groupEnd)
        }
    }
}

/// ATT_MULTIPLE_HANDLE_VALUE_NTF (3.4.7.4): a list of Handle, Length, Value.
enum ATTMultipleHandleValueNotification {
    /// The (handle, value) pairs, as far as they are whole.
    static func values(_ bytes: [UInt8]) -> [(handle: UInt16, value: [UInt8])] {
        guard bytes.first == ATTOpcode.multipleHandleValueNotification.rawValue else { return [] }
        var values: [(handle: UInt16, value: [UInt8])] = []
        var index = 1
        while index + 4 <= bytes.count {
            let handle = UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
            let length = Int(bytes[index + 2]) | Int(bytes[index + 3]) << 8
            guard index + 4 + length <= bytes.count else { break }
            values.append((handle, Array(bytes[index + 4..<index + 4 + length])))
            index += 4 + length
        }
        return values
    }
}
