/// The 8-byte SMP header (Zephyr `smp_protocol.rst`), fields big-endian:
/// `version << 3 | op`, flags, body length u16, group u16, sequence u8, command id u8.
public struct SMPHeader: Sendable, Equatable {
    /// `op`: the low three bits of the first byte.
    public struct Operation: RawRepresentable, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let read = Operation(rawValue: 0)
        public static let readResponse = Operation(rawValue: 1)
        public static let write = Operation(rawValue: 2)
        public static let writeResponse = Operation(rawValue: 3)
    }

    public static let size = 8
    /// Version 0 is the original protocol (SMP v1), 1 is SMP v2.
    public static let version1: UInt8 = 0
    public static let version2: UInt8 = 1

    public var operation: Operation
    public var version: UInt8
    public var flags: UInt8
    /// Length of the CBOR body that follows the header.
    public var length: Int
    public var group: UInt16
    public var sequence: UInt8
    public var command: UInt8

    public init(operation: Operation, version: UInt8, flags: UInt8 = 0, length: Int, group: UInt16,
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
    public init?(decoding frame: [UInt8]) {
        guard frame.count >= Self.size else { return nil }
        self.init(operation: Operation(rawValue: frame[0] & 0x07), version: (frame[0] >> 3) & 0x03,
                  flags: frame[1], length: Int(frame[2]) << 8 | Int(frame[3]),
                  group: UInt16(frame[4]) << 8 | UInt16(frame[5]), sequence: frame[6], command: frame[7])
    }

    public var bytes: [UInt8] {
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
