import DFUGATT

/// Where a wire to one device is opened, and opened again after the device reset: a serial
/// port found by its path or its USB serial number (which survives re-enumeration under
/// another name), a UDP address, a simulated device.
public protocol WireEndpoint: AnyObject {
    /// What it names, for messages: `/dev/ttyACM0`, `udp 127.0.0.1:1337`.
    var description: String { get }
    /// The endpoint's clock (the wires it opens use the same one).
    var now: Duration { get }
    /// Opens a wire to the device.
    /// - Throws: `.unavailable` when the port is not there (yet), or cannot be configured.
    func open() async throws(WireError) -> any ByteWire
    /// Lets time pass with no wire open.
    func sleep(until deadline: Duration) async
}
