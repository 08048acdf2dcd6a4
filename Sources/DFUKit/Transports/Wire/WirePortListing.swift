import DFUGATT
import DFUSerial

/// What a scan of `serial:all` (or of named ports) finds: each port as an "advertisement", its
/// name saying its path and USB identity. Nothing to connect to: a flash names one port.
final class WirePortListing: GATTTransport {
    let name: String
    private let ports: () -> [SerialPortInfo]
    private let clock = WireClock()

    init(name: String, ports: @escaping () -> [SerialPortInfo]) {
        self.name = name
        self.ports = ports
    }

    var now: Duration { clock.now }

    /// The ports there are now.
    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        ports().map { port in
            Advertisement(address: WireDeviceIdentity.address(for: SerialTarget.identity(of: port)),
                          name: port.description, serviceUUIDs: [], rssi: 0)
        }
    }

    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        throw GATTError(.connectionFailed, address: address.description,
                        detail: "\(name) lists ports; name one port to talk to a device, with the profile that speaks to it")
    }

    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        throw GATTError(.unsupported, address: address.description, detail: "\(name) lists ports")
    }

    func sleep(until deadline: Duration) async {
        await clock.sleep(until: deadline)
    }
}
