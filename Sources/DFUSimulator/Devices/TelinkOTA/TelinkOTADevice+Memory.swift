import Foundation

/// What `sim:telink-ota?state=FILE` keeps: the firmware it runs (nil: the factory image) and the
/// revision 2A26 reports. An OTA under way is not kept: the device erases it when it fails, as
/// it does on a lost link.
extension TelinkOTADevice: SimulatedMemoryKeeping {
    package struct Memory: Codable, Sendable, Equatable {
        package var image: Data?
        package var revision: String
    }

    package var memory: Memory {
        Memory(image: running.image.map { Data($0) }, revision: running.revision)
    }

    package func restore(_ memory: Memory) throws(SimulatorStateError) {
        guard !memory.revision.isEmpty else { throw SimulatorStateError("the running firmware has no revision") }
        running = TelinkSimulatedFirmware(image: memory.image.map { Array($0) }, revision: memory.revision)
    }
}
