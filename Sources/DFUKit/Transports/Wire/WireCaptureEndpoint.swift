import DFUWire

/// An endpoint whose wires are captured into one pcap file (`--trace FILE` on a serial or UDP
/// device): the first wire starts the file, each wire opened again after a reset or a lost link
/// adds to it, so one file holds the whole session.
final class WireCaptureEndpoint: WireEndpoint {
    private let endpoint: any WireEndpoint
    private let path: String
    private var started = false

    /// `endpoint` itself when there is no file to capture to.
    static func wrap(_ endpoint: any WireEndpoint, traceFile: String?) -> any WireEndpoint {
        traceFile.map { WireCaptureEndpoint(endpoint, path: $0) } ?? endpoint
    }

    private init(_ endpoint: any WireEndpoint, path: String) {
        self.endpoint = endpoint
        self.path = path
    }

    var description: String { endpoint.description }
    var now: Duration { endpoint.now }

    func open() async throws(WireError) -> any ByteWire {
        let wire = try await endpoint.open()
        let capture = try WireCapture(wire: wire, path: path, appending: started)
        started = true
        return capture
    }

    func sleep(until deadline: Duration) async {
        await endpoint.sleep(until: deadline)
    }
}
