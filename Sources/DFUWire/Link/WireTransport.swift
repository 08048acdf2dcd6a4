import DFUGATT

/// A transport with one device at the end of a wire: scanning finds it (when its port is
/// there), connecting opens the wire and gives a `WireGATTLink` that carries the profile's
/// characteristics as the binding says.
public final class WireTransport: GATTTransport {
    /// The device's address: a stable stand-in derived from the endpoint, since a wire has none.
    public let address: DeviceAddress
    private let endpoint: any WireEndpoint
    private let binding: WireBinding
    /// How often a port that is not there is tried again while connecting.
    private let retryInterval: Duration
    /// Told of every chunk of bytes each link sends or receives, framing included (for traces).
    public var onTraffic: ((WireTraffic) -> Void)?
    /// The wire `waitForAdvertisement` opened to see the device back, kept for the `connect`
    /// that follows: a port is opened once, not closed and opened again (closing a serial port
    /// drops DTR, which some boards take as a reset).
    private var parked: (any ByteWire)?

    /// A transport to the device at `endpoint`, known as `address`.
    public init(endpoint: any WireEndpoint, binding: WireBinding, address: DeviceAddress,
                retryInterval: Duration = .milliseconds(100)) {
        self.endpoint = endpoint
        self.binding = binding
        self.address = address
        self.retryInterval = retryInterval
    }

    /// The device at the end of the wire.
    public var soleDevice: DeviceAddress? { address }

    /// `serial:/dev/ttyACM0`, `udp:127.0.0.1:1337`.
    public var name: String { "\(binding.medium.rawValue):\(endpoint.description)" }
    /// The endpoint's clock.
    public var now: Duration { endpoint.now }

    /// The one device, when its wire opens now; none otherwise.
    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        guard let wire = try? await endpoint.open() else { return [] }
        await wire.close()
        return [advertisement]
    }

    /// Opens the wire, trying again until `timeout` while the port is not there (a device whose
    /// USB port comes back after a reset).
    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        guard address == self.address else {
            throw GATTError(.connectionFailed, address: address.description,
                            detail: "\(name) reaches one device, \(self.address)")
        }
        if let wire = parked {
            parked = nil
            return link(over: wire, address: address)
        }
        let deadline = endpoint.now + timeout
        while true {
            do {
                let wire = try await endpoint.open()
                return link(over: wire, address: address)
            } catch {
                guard error.kind == .unavailable, endpoint.now + retryInterval <= deadline else {
                    throw GATTError(.connectionFailed, address: address.description, detail: error.description)
                }
                await endpoint.sleep(until: endpoint.now + retryInterval)
            }
        }
    }

    /// A wire has no advertisements: the device counts as back once its wire opens again (a USB
    /// CDC-ACM port that went away while the device rebooted is back). A UART or UDP wire opens
    /// at once whether the device has booted or not; what the device answers next tells. The
    /// wire stays open for the next `connect`.
    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        guard address == self.address else { return nil }
        let deadline = endpoint.now + timeout
        while true {
            if let wire = try? await endpoint.open() {
                if let earlier = parked { await earlier.close() }
                parked = wire
                return advertisement
            }
            guard endpoint.now + retryInterval <= deadline else { return nil }
            await endpoint.sleep(until: endpoint.now + retryInterval)
        }
    }

    /// Lets time pass on the endpoint's clock.
    public func sleep(until deadline: Duration) async {
        await endpoint.sleep(until: deadline)
    }

    private func link(over wire: any ByteWire, address: DeviceAddress) -> WireGATTLink {
        let link = WireGATTLink(wire: wire, binding: binding, address: address)
        link.onTraffic = onTraffic
        return link
    }

    private var advertisement: Advertisement {
        Advertisement(address: address, name: endpoint.description,
                      serviceUUIDs: binding.services.map(\.uuid), rssi: 0, manufacturerData: [])
    }
}
