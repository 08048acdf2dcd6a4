import DFUWire
import Foundation

/// A serial port named by a selector, opened with settings: each open looks the port up again,
/// so a device that reset and came back under another tty number is reached (by its USB serial
/// number or position, or by a udev link).
public final class SerialPortEndpoint: WireEndpoint {
    /// How the port is named.
    public let selector: SerialPortSelector
    /// How it is set up at each open.
    public let settings: SerialPortSettings
    /// Where ports are looked up.
    public let catalog: SerialPortCatalog
    /// The node the last open reached: `/dev/ttyACM1`.
    public private(set) var lastOpenedPath: String?
    private let clock: WireClock
    private let syscalls: any WireSyscalls

    /// The port `selector` names, set up with `settings`, looked up in `catalog`, on `clock`.
    public convenience init(selector: SerialPortSelector, settings: SerialPortSettings = SerialPortSettings(),
                            catalog: SerialPortCatalog = SerialPortCatalog(), clock: WireClock = WireClock()) {
        self.init(selector: selector, settings: settings, catalog: catalog, clock: clock, syscalls: SystemWireSyscalls())
    }

    /// The port opened through `syscalls`.
    package init(selector: SerialPortSelector, settings: SerialPortSettings, catalog: SerialPortCatalog,
                 clock: WireClock, syscalls: any WireSyscalls) {
        self.selector = selector
        self.settings = settings
        self.catalog = catalog
        self.clock = clock
        self.syscalls = syscalls
    }

    /// The selector: `/dev/ttyACM0`, `usb-serial=E3B0C442`.
    public var description: String { selector.description }

    /// The time since the clock's origin.
    public var now: Duration { clock.now }

    /// Looks the port up and opens it.
    /// - Throws: `.unavailable` when the port is not there (saying what was looked for and which
    ///   ports there are), or cannot be opened or set up.
    public func open() async throws(WireError) -> any ByteWire {
        let path = try selector.resolve(in: catalog)
        if case .path = selector, !FileManager.default.fileExists(atPath: path) {
            throw WireError(.unavailable, wire: description,
                            detail: "no such port; \(SerialPortSelector.listing(catalog.ports()))")
        }
        let wire = try SerialPortWire(path: path, settings: settings, clock: clock, syscalls: syscalls)
        lastOpenedPath = path
        return wire
    }

    /// Sleeps on the endpoint's clock.
    public func sleep(until deadline: Duration) async {
        await clock.sleep(until: deadline)
    }
}
