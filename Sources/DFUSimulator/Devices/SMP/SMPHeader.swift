/// The 8-byte SMP header (Zephyr `smp_protocol.rst`), fields big-endian:
/// `version << 3 | op`, flags, body length u16, group u16, sequence u8, command id u8.
package struct SMPHeader: Sendable, Equatable {
    /// `op`: the low three bits of the first byte.
    package struct Operation: RawRepresentable, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        package static let read = Operation(rawValue: 0)
        package static let readResponse = Operation(rawValue: 1)
        package static let write = Operation(rawValue: 2)
        package static let writeResponse = Operation(rawValue: 3)
    }

    package static let size = 8
    /// Version 0 is the original protocol (SMP v1), 1 is SMP v2.
    package static let version1: UInt8 = 0
    package static let version2: UInt8 = 1

    package var operation: Operation
    package var version: UInt8
    package var flags: UInt8
    /// Length of the CBOR body that follows the header.
    package var length: Int
    package var group: UInt16
    package var sequence: UInt8
    package var command: UInt8

    package init(operation: Operation, version: UInt8, flags: UInt8 = 0, length: Int, group: UInt16,
                sequence: UInt8, command: UInt8) {
        self.operation = operation
        self.version = version
        self.flags = flags
        self.length = length
        self.group = group
        self.sequence = sequence
        self.command = command
    }

    /// The header at the start of `frame`, or nil when fewer than 8 bytes are there.
    package init?(decoding frame: [UInt8]) {
        guard frame.count >= Self.size else { return nil }
        self.init(operation: Operation(rawValue: frame[0] & 0x07), version: (frame[0] >> 3) & 0x03,
                  flags: frame[1], length: Int(frame[2]) << 8 | Int(frame[3]),
                  group: UInt16(frame[4]) << 8 | UInt16(frame[5]), sequence: frame[6], command: frame[7])
    }

    package var bytes: [UInt8] {
        [(version & 0x03) << 3 | (operation.rawValue & 0x07), flags,
         UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
         UInt8(truncatingIfNeeded: group >> 8), UInt8(truncatingIfNeeded: group), sequence, command]
    }

    /// The header of the answer: op + 1, `version`, the same group, sequence and command id.
    func response(version: UInt8, length: Int) -> SMPHeader {
        SMPHeader(operation: Operation(rawValue: operation.rawValue | 1), version: version, flags: 0,
                  length: length, group: group, sequence: sequence, command: command)
    }
}
