import DFUGATT
import DFUSimulator

/// Opens the transport a `DeviceSpecifier` names.
enum TransportFactory {
    enum Failure: Error {
        /// Wrong `sim:` options: a usage error (64).
        case usage(String)
        /// The transport cannot be used here (69).
        case unavailable(String)
    }

    static func open(_ specifier: DeviceSpecifier) throws(Failure) -> any GATTTransport {
        switch specifier.transport {
        case .sim:
            do {
                return try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: specifier.target))
            } catch {
                throw .usage(error.description)
            }
        case .hci, .bluez:
            throw .unavailable("the \(specifier.transport.rawValue): transport is not part of this build yet; "
                               + "use sim:NAME to flash a simulated device")
        }
    }
}
