/// A Nordic Secure DFU init packet: the `.dat` file of an nrfutil package, sent to the bootloader
/// as the command object before the firmware.
///
/// dfu-cc.proto (proto2), the parts DFUKit reads:
/// ```
/// Packet        { 1: Command command | 2: SignedCommand signed_command }
/// SignedCommand { 1: Command command; 2: SignatureType signature_type; 3: bytes signature }
/// Command       { 1: OpCode op_code; 2: InitCommand init }
/// ```
/// The signature covers exactly the serialized `InitCommand` (the payload of `Command` field 2),
/// so those bytes are kept as they were in the file: `initCommandBytes`.
public struct NordicInitPacket: Sendable, Equatable {
    /// The whole init packet as stored (the `.dat` file).
    public let bytes: [UInt8]
    /// `Command.op_code`; `nil` when absent.
    package let opCode: NordicOpCode?
    /// The decoded `Command.init`.
    public let initCommand: NordicInitCommand
    /// The serialized `InitCommand` exactly as stored: what the signature covers.
    package let initCommandBytes: [UInt8]
    /// Whether the packet is a `SignedCommand` (Packet field 2) rather than a bare `Command`.
    package let isSignedCommand: Bool
    /// `SignedCommand.signature_type`; `nil` for an unsigned packet.
    package let signatureType: NordicSignatureType?
    /// `SignedCommand.signature` as stored (ECDSA: r then s, each 32 bytes little-endian);
    /// `nil` for an unsigned packet.
    public let signature: [UInt8]?

    /// Decodes a `.dat` init packet.
    /// - Throws: `NordicInitPacketError` for empty or malformed protobuf (with the byte offset), a
    ///   field of the wrong type, or a packet without `Packet.command` / `Command.init`.
    public init(decoding bytes: [UInt8]) throws(NordicInitPacketError) {
        guard !bytes.isEmpty else { throw .empty }
        var commandBytes: ArraySlice<UInt8>?
        var signedCommandBytes: ArraySlice<UInt8>?
        var reader = ProtobufReader(bytes)
        while let field = try NordicInitCommand.next(&reader) {
            switch field.number {
            case 1: commandBytes = try field.message("Packet.command")
            case 2: signedCommandBytes = try field.message("Packet.signed_command")
            default: continue
            }
        }

        var signatureType: NordicSignatureType?
        var signature: [UInt8]?
        if let signedCommandBytes {
            var signedCommand: ArraySlice<UInt8>?
            var signedReader = ProtobufReader(signedCommandBytes)
            while let field = try NordicInitCommand.next(&signedReader) {
                switch field.number {
                case 1: signedCommand = try field.message("SignedCommand.command")
                case 2: signatureType = NordicSignatureType(rawValue: try field.enumeration("SignedCommand.signature_type"))
                case 3: signature = Array(try field.bytes("SignedCommand.signature"))
                default: continue
                }
            }
            guard let signedCommand else { throw .missingField("SignedCommand.command") }
            commandBytes = signedCommand
        }
        guard let commandBytes else { throw .missingField("Packet.command (or Packet.signed_command)") }

        var opCode: NordicOpCode?
        var initBytes: ArraySlice<UInt8>?
        var commandReader = ProtobufReader(commandBytes)
        while let field = try NordicInitCommand.next(&commandReader) {
            switch field.number {
            case 1: opCode = NordicOpCode(rawValue: try field.enumeration("Command.op_code"))
            case 2: initBytes = try field.message("Command.init")
            default: continue
            }
        }
        guard let initBytes else { throw .missingField("Command.init") }

        self.bytes = bytes
        self.opCode = opCode
        self.initCommand = try NordicInitCommand(decoding: initBytes)
        self.initCommandBytes = Array(initBytes)
        self.isSignedCommand = signedCommandBytes != nil
        self.signatureType = signatureType
        self.signature = signature
    }

    /// Same as `init(decoding:)`.
    package static func decode(_ bytes: [UInt8]) throws(NordicInitPacketError) -> NordicInitPacket {
        try NordicInitPacket(decoding: bytes)
    }

    /// Whether the packet carries a non-empty signature.
    package var isSigned: Bool { !(signature ?? []).isEmpty }
}
