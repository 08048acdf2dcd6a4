import Foundation

/// A simulated device whose memory (what its flash and RAM hold between commands: slots, a
/// partial upload, test and confirm flags) can be written to a file and read back, so that
/// `sim:NAME?state=FILE` can rehearse an update over several `dfukit` invocations.
///
/// Only what a real device keeps across a power-off is meant: a device's link, timers and fault
/// counters are not part of it.
package protocol SimulatedMemoryKeeping: SimulatedPeripheral {
    /// The device's memory as a Codable value.
    associatedtype Memory: Codable
    var memory: Memory { get }
    /// Replaces the device's memory with one read from a file.
    func restore(_ memory: Memory) throws(SimulatorStateError)
}

/// Why a state file cannot be read, written or used.
public struct SimulatorStateError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the file, and where.
    public var message: String
    /// An error that says `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
