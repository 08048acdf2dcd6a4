/// Faults a simulated wire injects, for the fault matrix. Bytes are counted from 1 over the
/// whole run, in each direction separately ("to the device": what the engine sent; "to the
/// host": what the device sent), garbage not included.
public struct SimulatedWireFaults: Sendable, Equatable {
    /// Bytes to the device that are lost on the line (`fault=lose-byte:N`).
    public var lostBytesToDevice: Set<Int> = []
    /// Bytes to the device that arrive with every bit inverted (`fault=corrupt-byte:N`).
    public var corruptedBytesToDevice: Set<Int> = []
    /// Bytes to the host that are lost on the line (`fault=lose-reply-byte:N`).
    public var lostBytesToHost: Set<Int> = []
    /// Bytes to the host that arrive with every bit inverted (`fault=corrupt-reply-byte:N`).
    public var corruptedBytesToHost: Set<Int> = []
    /// Line noise the device receives just before the engine's Nth send (1-based), by N
    /// (`fault=garbage:N`: `garbageLine`).
    public var garbageToDevice: [Int: [UInt8]] = [:]
    /// Line noise the host receives just before the device's Nth output, by N
    /// (`fault=reply-garbage:N`).
    public var garbageToHost: [Int: [UInt8]] = [:]
    /// Reads of the host end exactly at these offsets of the stream to the host (the number of
    /// bytes to the host read before the cut): a frame split across reads wherever the test
    /// asks.
    public var readBoundaries: Set<Int> = []
    /// At most this many bytes per read (1: every byte is a read of its own).
    public var bytesPerRead: Int?
    /// The device loses power once byte N to the device has arrived (`fault=reset-at-byte:N`):
    /// it resets mid-frame.
    public var resetAtByteToDevice: Set<Int> = []

    /// Bytes that are no frame of any protocol the simulator speaks: they hold no SLIP END,
    /// no SMP console marker, and end with a newline so that a console drops them as a line.
    public static let garbageLine: [UInt8] = Array("#&!? line noise %~\r\n".utf8)

    /// No faults.
    public init() {}

    /// Whether no fault is set.
    public var isEmpty: Bool { self == SimulatedWireFaults() }
}
