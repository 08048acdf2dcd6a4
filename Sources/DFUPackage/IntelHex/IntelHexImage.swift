/// The memory image an Intel HEX file describes: one contiguous block from `baseAddress`.
public struct IntelHexImage: Sendable, Equatable {
    /// Entry point given by a start address record, if the file has one.
    public enum StartAddress: Sendable, Equatable {
        /// Record type `03`: code segment and instruction pointer.
        case segment(codeSegment: UInt16, instructionPointer: UInt16)
        /// Record type `05`: a 32-bit linear address.
        case linear(UInt32)
    }

    /// The lowest address holding data.
    package let baseAddress: UInt32
    /// Every byte from `baseAddress` to the highest address holding data; gaps hold `0xFF`
    /// (the value of erased flash).
    public let bytes: [UInt8]
    package let startAddress: StartAddress?

    /// The image of `bytes` from `baseAddress`, with its entry point if any.
    public init(baseAddress: UInt32, bytes: [UInt8], startAddress: StartAddress?) {
        self.baseAddress = baseAddress
        self.bytes = bytes
        self.startAddress = startAddress
    }
}
