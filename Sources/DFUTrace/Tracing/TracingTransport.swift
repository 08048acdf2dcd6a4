import DFUGATT
import DFUWire

/// A `GATTTransport` that passes everything to the one it wraps and traces every link it
/// connects: what DFUKit writes and what the device notifies, as ATT values and as the
/// profile's messages (see `TracingLink`). The engine runs over it unchanged.
public final class TracingTransport: GATTTransport {
    private let inner: any GATTTransport
    private let catalog: MessageCatalog
    private let sink: (TraceEvent) -> Void

    /// `sink` gets each event as it happens.
    public init(_ inner: any GATTTransport, catalog: MessageCatalog, sink: @escaping (TraceEvent) -> Void) {
        self.inner = inner
        self.catalog = catalog
        self.sink = sink
        // A serial line or UDP: the frames themselves too.
        (inner as? WireTransport)?.onTraffic = { traffic in
            sink(TraceEvent(time: traffic.at, kind: .wire(direction: traffic.sent ? .written : .notified, bytes: traffic.bytes)))
        }
    }

    /// The wrapped transport's name.
    public var name: String { inner.name }
    /// The wrapped transport's clock.
    public var now: Duration { inner.now }
    /// The wrapped transport's sole device.
    public var soleDevice: DeviceAddress? { inner.soleDevice }

    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        try await inner.scan(timeout: timeout)
    }

    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        sink(TraceEvent(time: inner.now, kind: .connecting(address)))
        let link = try await inner.connect(to: address, timeout: timeout)
        catalog.reset()
        sink(TraceEvent(time: inner.now, kind: .connected(address, mtu: link.mtu)))
        return TracingLink(link, catalog: catalog, clockOffset: inner.now - link.now, sink: sink)
    }

    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError)
        -> Advertisement? {
        try await inner.waitForAdvertisement(from: address, timeout: timeout)
    }

    public func sleep(until deadline: Duration) async {
        await inner.sleep(until: deadline)
    }
}
