/// Typed reads of one field for the init packet decoders; `name` is the field as dfu-cc.proto
/// spells it (`InitCommand.fw_version`), for errors.
extension ProtobufField {
    func uint32(_ name: String) throws(NordicInitPacketError) -> UInt32 {
        let value = try varint(name)
        guard let result = UInt32(exactly: value) else {
            throw .valueOutOfRange(field: name, value: value, offset: offset)
        }
        return result
    }

    /// An enum is an int32 on the wire; negative values arrive sign-extended to 64 bits.
    func enumeration(_ name: String) throws(NordicInitPacketError) -> Int32 {
        let value = try varint(name)
        let signed = Int64(bitPattern: value)
        guard let result = Int32(exactly: signed) else {
            throw .valueOutOfRange(field: name, value: value, offset: offset)
        }
        return result
    }

    func bool(_ name: String) throws(NordicInitPacketError) -> Bool {
        try varint(name) != 0
    }

    func bytes(_ name: String) throws(NordicInitPacketError) -> ArraySlice<UInt8> {
        guard case let .lengthDelimited(payload) = value else {
            throw .wrongWireType(field: name, expected: .lengthDelimited, found: wireType, offset: offset)
        }
        return payload
    }

    func message(_ name: String) throws(NordicInitPacketError) -> ArraySlice<UInt8> {
        try bytes(name)
    }

    /// A repeated uint32, either one value per field (unpacked) or packed in one length-delimited field.
    func repeatedUInt32(_ name: String) throws(NordicInitPacketError) -> [UInt32] {
        switch value {
        case let .varint(single):
            guard let result = UInt32(exactly: single) else {
                throw .valueOutOfRange(field: name, value: single, offset: offset)
            }
            return [result]
        case let .lengthDelimited(payload):
            let values: [UInt64]
            do {
                values = try ProtobufReader.packedVarints(payload)
            } catch {
                throw .malformed(error)
            }
            var result: [UInt32] = []
            for value in values {
                guard let narrow = UInt32(exactly: value) else {
                    throw .valueOutOfRange(field: name, value: value, offset: offset)
                }
                result.append(narrow)
            }
            return result
        default:
            throw .wrongWireType(field: name, expected: .varint, found: wireType, offset: offset)
        }
    }

    private func varint(_ name: String) throws(NordicInitPacketError) -> UInt64 {
        guard case let .varint(number) = value else {
            throw .wrongWireType(field: name, expected: .varint, found: wireType, offset: offset)
        }
        return number
    }
}
