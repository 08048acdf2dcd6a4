import DFUBytes

/// How the controller answers a command (Core spec Vol 4, Part E, 4.4).
package enum HCICommandCompletion: Sendable, Hashable {
    /// Command Complete carries the status and return parameters.
    case commandComplete
    /// Command Status says the command started; a later event reports the outcome.
    case commandStatus
}

/// One HCI command: a fixed opcode and its parameters. Each conforming type encodes and decodes
/// its parameters side by side (`parameters` and `init(parameters:)` mirror each other).
package protocol HCICommand: Sendable, Hashable {
    static var opcode: HCIOpcode { get }
    /// The spec's name, e.g. "LE Set Scan Enable".
    static var name: String { get }
    static var completion: HCICommandCompletion { get }
    /// The parameter bytes after the 3-byte command header.
    var parameters: [UInt8] { get }
    init(parameters: [UInt8]) throws(HCIDecodeError)
}

extension HCICommand {
    package static var completion: HCICommandCompletion { .commandComplete }

    /// The command packet: opcode (little-endian), parameter length, parameters.
    package var packet: HCIPacket {
        HCICommandPacket(opcode: Self.opcode, parameters: parameters).packet
    }
}

/// A command packet whose command may be unknown: opcode and raw parameters.
package struct HCICommandPacket: Sendable, Hashable {
    package var opcode: HCIOpcode
    package var parameters: [UInt8]

    package init(opcode: HCIOpcode, parameters: [UInt8]) {
        precondition(parameters.count <= 255, "HCI command parameters are at most 255 bytes")
        self.opcode = opcode
        self.parameters = parameters
    }

    package init(packet: HCIPacket) throws(HCIDecodeError) {
        guard packet.type == .command else {
            throw HCIDecodeError("HCI command", "packet type is \(packet.type)")
        }
        let (opcode, parameters) = try decodeParameters("HCI command", packet.body) { reader throws(ByteReaderError) in
            let opcode = try reader.readUInt16()
            let length = Int(try reader.readByte())
            return (opcode, try reader.readBytes(count: length))
        }
        self.init(opcode: HCIOpcode(rawValue: opcode), parameters: parameters)
    }

    package var packet: HCIPacket {
        var writer = ByteWriter(capacity: 3 + parameters.count)
        writer.appendUInt16(opcode.rawValue)
        writer.append(byte: UInt8(parameters.count))
        writer.append(bytes: parameters)
        return HCIPacket(type: .command, body: writer.bytes)
    }

    /// Decodes the parameters as `Command`, after checking the opcode.
    package func decode<Command: HCICommand>(as command: Command.Type) throws(HCIDecodeError) -> Command {
        guard opcode == Command.opcode else {
            throw HCIDecodeError(Command.name, "opcode is \(opcode), expected \(Command.opcode)")
        }
        return try Command(parameters: parameters)
    }
}

/// A command without parameters.
package protocol HCIParameterlessCommand: HCICommand {
    init()
}

extension HCIParameterlessCommand {
    package var parameters: [UInt8] { [] }
    package init(parameters: [UInt8]) throws(HCIDecodeError) { self.init() }
}
