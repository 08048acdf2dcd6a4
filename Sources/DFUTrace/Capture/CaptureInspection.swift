import DFUCapture
import DFUGATT
import DFUProfile

/// A capture read for people: each connection's operations as trace events (the ones
/// `profile trace` prints), and with a profile, every message decoded by name and field, with
/// what the profile cannot explain marked (the first unknown message, values that break the
/// framing, a checksum that does not verify).
public struct CaptureInspection: Sendable {
    /// How the characteristics of a connection were named.
    public enum NamingSource: String, Sendable {
        /// From the GATT discovery in the capture, matched to the profile's UUIDs.
        case discovery
        /// The capture holds no discovery: each handle was given the profile characteristic
        /// whose messages its values read best as.
        case content
        /// No profile, or nothing matched: handles (and UUIDs where discovered) only.
        case none
    }

    /// One connection of the capture.
    public struct Connection: Sendable {
        /// 1 for the first.
        public var number: Int
        /// The device's address, where the capture shows it.
        public var peer: DeviceAddress?
        /// The ATT_MTU agreed, where the capture shows the exchange.
        public var mtu: Int?
        /// The profile's characteristic at each value handle (or its UUID without a profile).
        public var names: [UInt16: String]
        /// How `names` were found.
        public var naming: NamingSource
        /// What went over it, in order.
        public var events: [TraceEvent]
    }

    /// Where the profile could not explain the capture first.
    public struct Unexplained: Sendable {
        /// The connection (1 for the first).
        public var connection: Int
        /// When, from the capture's start.
        public var time: Duration
        /// What could not be explained.
        public var reason: String
    }

    /// The capture read.
    public var source: String
    /// Its format.
    public var format: CaptureFormat
    /// What the reader could not read.
    public var notes: [String]
    /// Every connection.
    public var connections: [Connection]
    /// The profile's name, when one read the messages.
    public var profile: String?
    /// Messages read, and how many of them the profile decoded.
    public var messages = 0, decoded = 0
    /// Where the profile could not explain the capture first; nil when it explained it all.
    public var firstUnexplained: Unexplained?

    /// Reads `session`, its messages by `profile` when given.
    public init(_ session: CapturedSession, profile: Profile?) {
        source = session.source
        format = session.format
        notes = session.notes
        self.profile = profile?.name
        connections = []
        for (index, connection) in session.connections.enumerated() {
            var reader = CapturedConnectionReader(connection, number: index + 1, profile: profile)
            let events = reader.read()
            connections.append(Connection(number: index + 1, peer: connection.peer, mtu: connection.mtu,
                                          names: reader.names, naming: reader.naming, events: events))
            messages += reader.messages
            decoded += reader.decoded
            if firstUnexplained == nil, let first = reader.firstUnexplained {
                firstUnexplained = Unexplained(connection: index + 1, time: first.time, reason: first.reason)
            }
        }
    }
}
