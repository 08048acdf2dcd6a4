import DFUCapture
import DFUGATT
import DFUWire

/// A `GATTTransport` that passes everything to the one it wraps and records the session in a
/// DFUKit recording (`--record`): every link it connects (see `RecordingLink`), the
/// advertisements it hears, and on a serial line or UDP the wire's bytes too. Any transport can
/// be wrapped: `sim:`, `hci:`, `bluez:`, `serial:`, `udp:`.
public final class RecordingTransport: GATTTransport {
    private let inner: any GATTTransport
    private let catalog: MessageCatalog
    /// Where the events go; give it the engine's events for notes (`SessionRecorder.note`).
    public let recorder: SessionRecorder

    /// Records what goes over `inner` to `writer`, with time zero at the transport's clock now.
    public init(_ inner: any GATTTransport, catalog: MessageCatalog, writer: RecordingWriter) {
        self.inner = inner
        self.catalog = catalog
        let recorder = SessionRecorder(writer: writer, origin: inner.now)
        self.recorder = recorder
        // A serial line or UDP: the frames themselves too.
        (inner as? WireTransport)?.onTraffic = { traffic in
            recorder.record(.wire(direction: traffic.sent ? .write : .notify, bytes: traffic.bytes), at: traffic.at)
        }
    }

    /// The wrapped transport's name.
    public var name: String { inner.name }
    /// The wrapped transport's clock.
    public var now: Duration { inner.now }
    /// The wrapped transport's sole device.
    public var soleDevice: DeviceAddress? { inner.soleDevice }

    /// The wrapped transport's scan; each advertisement heard is recorded.
    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        let found = try await inner.scan(timeout: timeout)
        for advertisement in found { recorder.record(.advertisement(advertisement), at: inner.now) }
        return found
    }

    /// Connects through the wrapped transport, recording the attempt, the connection, and then
    /// everything over the link.
    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        recorder.record(.connecting(address), at: inner.now)
        let link: any GATTLink
        do {
            link = try await inner.connect(to: address, timeout: timeout)
        } catch {
            recorder.note("connecting to \(address) failed: \(error)")
            throw error
        }
        catalog.reset()
        recorder.record(.connected(address, mtu: link.mtu, medium: link.medium, buffer: link.deviceBuffer), at: inner.now)
        return RecordingLink(link, catalog: catalog, recorder: recorder, clockOffset: inner.now - link.now)
    }

    /// The wrapped transport's wait; the advertisement that shows the device back is recorded.
    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError)
        -> Advertisement? {
        let advertisement = try await inner.waitForAdvertisement(from: address, timeout: timeout)
        if let advertisement { recorder.record(.advertisement(advertisement), at: inner.now) }
        return advertisement
    }

    /// The wrapped transport's sleep.
    public func sleep(until deadline: Duration) async {
        await inner.sleep(until: deadline)
    }
}
