import DFUBlueZ
import DFUGATT
import DFUHCI
import DFUHCITransport
import DFUSimulator

/// Opens the transport a `DeviceSpecifier` names.
enum TransportFactory {
    enum Failure: Error {
        /// Wrong `sim:` options: a usage error (64).
        case usage(String)
        /// The transport cannot be used here (69).
        case unavailable(String)
    }

    static func open(_ specifier: DeviceSpecifier, traceFile: String? = nil, security: String? = nil) throws(Failure) -> any GATTTransport {
        guard specifier.transport == .sim else {
            return try openRadio(specifier, traceFile: traceFile, security: security)
        }
        let configuration: SimulatorConfiguration
        do {
            configuration = try SimulatorConfiguration(parsing: specifier.target)
        } catch {
            throw .usage(error.description)
        }
        return try openSimulator(configuration)
    }

    /// `hci:...` or `bluez:hciN`: one transport that may hold several links at once (a batch
    /// shares it between its attempts).
    static func openRadio(_ specifier: DeviceSpecifier, traceFile: String? = nil,
                          security: String? = nil) throws(Failure) -> any GATTTransport & Sendable {
        switch specifier.transport {
        case .sim:
            throw .usage("sim: is not a radio transport")
        case .hci:
            do {
                _ = try H4PipeAddress(parsing: "hci:" + specifier.target)
            } catch {
                throw .usage("\(error)")
            }
            // DFUKit's host pairs with Just Works only: an encrypted link, without MITM protection.
            switch security {
            case "high"?, "fips"?:
                throw .unavailable("the profile asks for security \(security!) (an authenticated link); DFUKit's own HCI "
                             + "host pairs with Just Works only (security medium): use bluez: for this device")
            default:
                return HCIGATTTransport(address: specifier.target, traceFile: traceFile, encrypt: security == "medium")
            }
        case .bluez:
            do {
                let level: BlueZSecurityLevel? = switch security {
                case "low"?: .low
                case "medium"?: .medium
                case "high"?: .high
                case "fips"?: .fips
                default: nil
                }
                return try BlueZGATTTransport(adapter: specifier.target, security: level)
            } catch {
                throw .usage(error.detail)
            }
        }
    }

    /// Opens the transport, or prints why not and gives the exit status (64 for bad `sim:`
    /// options, 69 when the transport cannot be used here).
    static func open(_ specifier: DeviceSpecifier, console: any Console, command: String, traceFile: String? = nil,
                     security: String? = nil,
                     onUnavailable: (String) -> Void = { _ in }) -> Result<any GATTTransport, ExitStatus> {
        do {
            return .success(try open(specifier, traceFile: traceFile, security: security))
        } catch {
            switch error {
            case let .usage(message):
                console.error("error: \(message)\nSee '\(command) --help'.")
                return .failure(ExitStatus(code: ExitCode.usage))
            case let .unavailable(message):
                console.error("error: \(message)")
                onUnavailable(message)
                return .failure(ExitStatus(code: ExitCode.unavailable))
            }
        }
    }
}

/// An exit status as an error, for `Result`.
struct ExitStatus: Error {
    var code: Int32
}
