/// Counters of one simulated link, for benchmarks and tests.
public struct LinkStatistics: Sendable, Equatable {
    public var connectionEvents = 0
    public var packetsToPeripheral = 0
    public var packetsToCentral = 0
    public var valueBytesToPeripheral = 0
    public var valueBytesToCentral = 0

    public init() {}
}
