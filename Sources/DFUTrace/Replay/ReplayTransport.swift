import DFUCapture
import DFUGATT
import DFUProfile

/// A captured device answering again: each connection DFUKit opens is the capture's next one,
/// with its GATT database and MTU; each write, read and subscription DFUKit makes is checked
/// against what the captured client did there (`ReplayScript`), and the device's captured
/// answers follow it, as far apart in time as they were. On a virtual clock: a replay never
/// waits, and never hangs; a request the capture did not see fails at once with
/// `ReplayDivergence`, as an `.unsupported` GATT error naming it.
public final class ReplayTransport: GATTTransport {
    /// The replay's clock, shared with its links.
    final class Clock {
        var now: Duration = .zero
        func advance(to time: Duration) { if time > now { now = time } }
    }

    private var script: ReplayScript
    private let clock = Clock()
    /// When the last connection closed: on the replay's clock, and in the capture (its ending,
    /// else its last operation), for the time until the device is back.
    private var lastClosed: (replay: Duration, captured: Duration)?

    /// `name` is what reports show (`sim:replay?capture=FILE`). `strict`: the same bytes in the
    /// same writes; else whole messages compared field by field, legitimate differences let
    /// through (`profile verify --against`). `sameImage` (tolerant only): the image DFUKit
    /// sends is the captured one, so image-derived fields must match too.
    public init(session: CapturedSession, profile: Profile?, name: String, strict: Bool = true, sameImage: Bool = true) {
        script = ReplayScript(session: session, profile: profile, strictness: strict ? .strict : .tolerant)
        script.sameImage = sameImage
        self.name = name
    }

    /// What reports show.
    public let name: String
    /// The replay's virtual clock.
    public var now: Duration { clock.now }

    /// The first request the capture did not see, once there is one.
    public var divergence: ReplayDivergence? { script.divergence }
    /// Differences let through as legitimate (tolerant replays), in order.
    public var toleratedDifferences: [FieldDifference] { script.tolerated }
    /// What the replay noticed without stopping.
    public var notes: [String] { script.notes }
    /// What the captured client did that DFUKit has not (nil once every step was replayed).
    public var unfinished: String? { script.unfinished() }

    /// The device of the capture's first connection.
    public var soleDevice: DeviceAddress? {
        script.session.connections.first.map { Self.address(of: $0) }
    }

    /// The devices of the capture's connections, as advertisements.
    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        var seen: [Advertisement] = []
        for connection in script.session.connections where !seen.contains(where: { $0.address == Self.address(of: connection) }) {
            seen.append(Self.advertisement(of: connection))
        }
        clock.advance(to: clock.now + min(timeout, .milliseconds(100)))
        return seen
    }

    /// The capture's next connection, when it was to `address`.
    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        let connection: CapturedConnection
        switch script.connect() {
        case let .success(opened): connection = opened
        case let .failure(divergence):
            throw GATTError(.connectionFailed, address: address.description, detail: divergence.description)
        }
        let captured = Self.address(of: connection)
        guard captured == address else {
            throw GATTError(.connectionFailed, address: address.description,
                            detail: "the capture's next connection is to \(captured), not \(address)")
        }
        let link = ReplayLink(transport: self, connection: connection, clock: clock)
        link.deliver(script.opening())
        return link
    }

    /// The device advertises again after as long as the capture shows between its connections.
    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        let start = clock.now
        guard let next = nextConnection, Self.address(of: next) == address else {
            clock.advance(to: start + timeout)
            return nil
        }
        // Back as long after the last connection closed as in the capture.
        let gap = lastClosed.map { max(.zero, (next.operations.first?.time ?? $0.captured) - $0.captured) } ?? .zero
        let due = max(start, (lastClosed?.replay ?? start) + gap)
        guard due <= start + timeout else {
            clock.advance(to: start + timeout)
            return nil
        }
        clock.advance(to: due)
        return Self.advertisement(of: next)
    }

    /// Lets virtual time pass.
    public func sleep(until deadline: Duration) async {
        clock.advance(to: deadline)
    }

    // MARK: - For the links

    func write(_ value: [UInt8], to handle: UInt16, withResponse: Bool) -> Result<ReplayScript.Answer, ReplayDivergence> {
        script.write(value, to: handle, withResponse: withResponse)
    }

    func read(_ handle: UInt16) -> Result<ReplayScript.Answer, ReplayDivergence> {
        script.read(handle)
    }

    func subscribe(_ handle: UInt16, enabled: Bool) -> Result<Void, ReplayDivergence> {
        script.subscribe(handle, enabled: enabled)
    }

    func closed(byDevice: Bool, connection: CapturedConnection) {
        lastClosed = (clock.now, connection.ending?.time ?? connection.operations.last?.time ?? .zero)
        if byDevice { script.deviceDisconnected() } else { script.disconnect() }
    }

    private var nextConnection: CapturedConnection? {
        switch script.state {
        case let .waiting(next): return next < script.session.connections.count ? script.session.connections[next] : nil
        case let .connected(open):
            return open.index + 1 < script.session.connections.count ? script.session.connections[open.index + 1] : nil
        case .diverged: return nil
        }
    }

    static func address(of connection: CapturedConnection) -> DeviceAddress {
        connection.peer ?? DeviceAddress(value: 0)
    }

    static func advertisement(of connection: CapturedConnection) -> Advertisement {
        connection.advertisement ?? Advertisement(address: address(of: connection), name: nil,
                                                  serviceUUIDs: connection.services?.map(\.uuid) ?? [], rssi: -50)
    }
}
