/// Counters of one simulated link, for benchmarks and tests.
package struct LinkStatistics: Sendable, Equatable {
    package var connectionEvents = 0
    package var packetsToPeripheral = 0
    package var packetsToCentral = 0
    package var valueBytesToPeripheral = 0
    package var valueBytesToCentral = 0

    package init() {}
}
