#if canImport(Glibc)
import Glibc
#endif

/// A wire that records every chunk sent and received, with its time and direction, into a pcap
/// file (`WireCaptureFormat`) while passing everything through: `dfukit ... --capture FILE`, and
/// what a user attaches to a bug report.
///
/// Times are the wrapped wire's clock, anchored to the wall clock when the capture started: a
/// real wire's records carry the time they happened, a simulated wire's the virtual time after
/// that start. Each chunk is written to the file at once (a capture of a run that crashed holds
/// everything up to the crash).
public final class WireCapture: ByteWire {
    /// The wire recorded.
    public let wire: any ByteWire
    /// The capture file.
    public let path: String
    /// Records written so far (a chunk longer than a record may carry takes several).
    public private(set) var recordCount = 0
    private var descriptor: Int32
    private let startedAt: Duration
    private let wireTimeAtStart: Duration
    /// Set when the file could not be written: the next call fails with it.
    private var failure: WireError?

    /// Records `wire` into a new file at `path` (replacing one there), or, `appending`, after
    /// the records of a capture already there (a wire opened again after a reset or a lost link:
    /// one file holds the whole session). `startedAt` is the wall time of the wire's present
    /// moment, since 1970-01-01 UTC (now by default).
    /// - Throws: `.unavailable` when the file cannot be created or written.
    public init(wire: any ByteWire, path: String, startedAt: Duration? = nil, appending: Bool = false) throws(WireError) {
        var existing = stat()
        let append = appending && stat(path, &existing) == 0 && existing.st_size > 0
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
        guard descriptor >= 0 else {
            throw WireError(.unavailable, wire: path,
                            detail: "cannot create the capture file: \(String(cString: strerror(errno))); "
                                + "check the directory exists and is writable")
        }
        self.wire = wire
        self.path = path
        self.descriptor = descriptor
        self.startedAt = startedAt ?? Self.wallClockNow()
        self.wireTimeAtStart = wire.now
        if !append, let problem = write(WireCaptureFormat.fileHeader) {
            _ = Glibc.close(descriptor)
            self.descriptor = -1
            throw WireError(.unavailable, wire: path, detail: "cannot write the capture file: \(problem)")
        }
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// The wrapped wire's.
    public var kind: WireKind { wire.kind }
    /// The wrapped wire's, and where it is captured.
    public var description: String { "\(wire.description), captured to \(path)" }
    /// The wrapped wire's clock.
    public var now: Duration { wire.now }
    /// The wrapped wire's.
    public var lineRate: Int? { wire.lineRate }

    /// Sends through the wrapped wire, then records what it took.
    public func send(_ bytes: [UInt8]) async throws(WireError) {
        try checkCapture()
        try await wire.send(bytes)
        record(bytes, .sent)
    }

    /// Receives from the wrapped wire, recording what arrived.
    public func receive(until deadline: Duration) async throws(WireError) -> [UInt8]? {
        try checkCapture()
        let bytes = try await wire.receive(until: deadline)
        if let bytes { record(bytes, .received) }
        return bytes
    }

    /// The wrapped wire's sleep.
    public func sleep(until deadline: Duration) async {
        await wire.sleep(until: deadline)
    }

    /// Closes the wrapped wire and the file.
    public func close() async {
        await wire.close()
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    private func checkCapture() throws(WireError) {
        if let failure { throw failure }
    }

    private func record(_ bytes: [UInt8], _ direction: WireCaptureDirection) {
        guard descriptor >= 0, failure == nil else { return }
        let time = startedAt + (wire.now - wireTimeAtStart)
        let records = WireCaptureFormat.records(of: bytes, direction: direction, at: time)
        if let problem = write(records) {
            failure = WireError(.io, wire: path,
                                detail: "cannot write the capture file: \(problem); free some space or capture elsewhere")
            return
        }
        recordCount += max(1, (bytes.count + WireCaptureFormat.maximumChunk - 1) / WireCaptureFormat.maximumChunk)
    }

    /// Writes all of `bytes`; what went wrong, or nil.
    private func write(_ bytes: [UInt8]) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return String(cString: strerror(errno))
            }
        }
        return nil
    }

    private static func wallClockNow() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
