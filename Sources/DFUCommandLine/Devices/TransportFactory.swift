import DFUKit

/// Opens the transport a `DeviceSpecifier` names, through the library's transport registry
/// (`TransportRegistry.standard`: `sim:`, `hci:`, `bluez:`).
enum TransportFactory {
    enum Failure: Error {
        /// Wrong options: a usage error (64).
        case usage(String)
        /// The transport cannot be used here (69).
        case unavailable(String)

        init(_ error: DFUKitError) {
            self = error.kind == .transport ? .unavailable(error.message) : .usage(error.message)
        }
    }

    static func open(_ specifier: DeviceSpecifier, traceFile: String? = nil, security: String? = nil,
                     profile: Profile? = nil) throws(Failure) -> any GATTTransport {
        do {
            return try TransportRegistry.standard.open(specifier.locator, security: security, traceFile: traceFile,
                                                       profile: profile)
        } catch {
            throw Failure(error)
        }
    }

    /// Where a batch finds its devices on the transport `specifier` names (with the profile's
    /// link security): a simulated fleet, or one radio transport shared by all attempts.
    static func batchSource(_ specifier: DeviceSpecifier, security: String? = nil) throws(Failure) -> any BatchDeviceSource {
        do {
            let locator = specifier.locator
            return try TransportRegistry.standard.scheme(for: locator)
                .batchSource(TransportRequest(target: locator.target, security: security))
        } catch {
            throw Failure(error)
        }
    }

    /// Opens the transport, or prints why not and gives the exit status (64 for bad `sim:`
    /// options, 69 when the transport cannot be used here).
    static func open(_ specifier: DeviceSpecifier, console: any Console, command: String, traceFile: String? = nil,
                     security: String? = nil, profile: Profile? = nil,
                     onUnavailable: (String) -> Void = { _ in }) -> Result<any GATTTransport, ExitStatus> {
        do {
            return .success(try open(specifier, traceFile: traceFile, security: security, profile: profile))
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
