import Foundation
import DFUPackage

/// What `sim:ti-oad?state=FILE` keeps: the image it runs (internal flash). An OAD under way is
/// not kept: oad.c cancels it when the link drops.
extension TIOADDevice: SimulatedMemoryKeeping {
    package struct Memory: Codable, Sendable, Equatable {
        package var running: Data
    }

    package var memory: Memory { Memory(running: Data(target.running)) }

    package func restore(_ memory: Memory) throws(SimulatorStateError) {
        guard (try? TIOADImageHeader(decoding: Array(memory.running))) != nil else {
            throw SimulatorStateError("the running image has no OAD image header")
        }
        target.running = Array(memory.running)
    }
}
