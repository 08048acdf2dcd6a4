/// One field read from a protobuf message: its number, its raw value and where its tag starts.
package struct ProtobufField: Sendable, Equatable {
    /// The field number from the tag (1 ... 2^29 - 1).
    package let number: Int
    package let value: ProtobufValue
    /// Offset of the field's tag in the input the reader was given.
    package let offset: Int

    package init(number: Int, value: ProtobufValue, offset: Int) {
        self.number = number
        self.value = value
        self.offset = offset
    }

    package var wireType: ProtobufWireType { value.wireType }
}
