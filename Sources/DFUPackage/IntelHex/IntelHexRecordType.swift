/// The record types of Intel HEX (I8HEX, I16HEX and I32HEX).
public enum IntelHexRecordType: UInt8, Sendable, Equatable {
    /// `00`: data bytes at a 16-bit offset from the current base address.
    case data = 0x00
    /// `01`: end of file; no data.
    case endOfFile = 0x01
    /// `02`: extended segment address; the base becomes the 16-bit segment times 16.
    case extendedSegmentAddress = 0x02
    /// `03`: start segment address (CS:IP of the entry point for 80x86).
    case startSegmentAddress = 0x03
    /// `04`: extended linear address; the base becomes the 16-bit value shifted left by 16.
    case extendedLinearAddress = 0x04
    /// `05`: start linear address (the 32-bit entry point).
    case startLinearAddress = 0x05

    /// The data length this record type requires, or `nil` when any length is allowed.
    var requiredLength: Int? {
        switch self {
        case .data: return nil
        case .endOfFile: return 0
        case .extendedSegmentAddress, .extendedLinearAddress: return 2
        case .startSegmentAddress, .startLinearAddress: return 4
        }
    }
}
