import DFUKit

/// `--device SCHEME:TARGET[/ADDRESS]`, read by the library's one parser (`DeviceLocator`) and
/// checked by its scheme in the registry (`sim:` options, `hci:` addresses), so that a wrong
/// device string is refused with the same words by every command and by `DFUKit`, before any
/// profile or package is read.
struct DeviceSpecifier: Sendable, Equatable {
    /// The parsed string.
    var locator: DeviceLocator

    /// - Parameter command: the command line it came from, for the pointer to its `--help`.
    init(parsing text: String, command: String) throws(UsageError) {
        do {
            locator = try TransportRegistry.standard.locate(text).locator
        } catch {
            throw UsageError(error.message, command: command)
        }
    }

    var scheme: String { locator.scheme }
    var target: String {
        get { locator.target }
        set { locator.target = newValue }
    }
    var address: DeviceAddress? { locator.address }
    /// The device string as the library reads it.
    var text: String { locator.description }

    /// Whether times are on a simulated clock (a `sim:` device without `realtime=`), as the scheme says.
    var isSimulatedClock: Bool {
        TransportRegistry.standard.scheme(named: scheme)?.usesSimulatedClock(target: target) ?? false
    }
}
