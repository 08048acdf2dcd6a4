/// One field read from a protobuf message: its number, its raw value and where its tag starts.
public struct ProtobufField: Sendable, Equatable {
    /// The field number from the tag (1 ... 2^29 - 1).
    public let number: Int
    public let value: ProtobufValue
    /// Offset of the field's tag in the input the reader was given.
    public let offset: Int

    public init(number: Int, value: ProtobufValue, offset: Int) {
        self.number = number
        self.value = value
        self.offset = offset
    }

    public var wireType: ProtobufWireType { value.wireType }
}
