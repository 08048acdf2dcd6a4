import Foundation

/// What `sim:silabs-ota?state=FILE` keeps: the application flash holds (nil: erased by an
/// AppLoader upload that did not finish, so the device boots into the AppLoader) and whether it
/// runs the application or the AppLoader. An AppLoader upload is not kept: every disconnect
/// resets the AppLoader.
extension SilabsOTADevice: SimulatedMemoryKeeping {
    package struct Memory: Codable, Sendable, Equatable {
        /// `application` or `apploader`.
        package var mode: String
        package var application: Application?

        package struct Application: Codable, Sendable, Equatable {
            /// The GBL file it came from (nil: the factory application).
            package var gbl: Data?
            package var version: UInt32
        }
    }

    package var memory: Memory {
        Memory(mode: mode == .application ? "application" : "apploader",
               application: application.map { Memory.Application(gbl: $0.gbl.map { Data($0) }, version: $0.version) })
    }

    package func restore(_ memory: Memory) throws(SimulatorStateError) {
        let restoredMode: Mode
        switch memory.mode {
        case "application": restoredMode = .application
        case "apploader": restoredMode = .appLoader
        default: throw SimulatorStateError("mode '\(memory.mode)' (expected application or apploader)")
        }
        if restoredMode == .application, memory.application == nil {
            throw SimulatorStateError("the device runs its application, but flash holds none")
        }
        mode = restoredMode
        application = memory.application.map { Application(gbl: $0.gbl.map { Array($0) }, version: $0.version) }
    }
}
