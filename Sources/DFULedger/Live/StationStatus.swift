import Foundation

/// One station process as the ledger knows it (schema 5, `dfukit_stations`): written by
/// `Ledger.announceStation` when a `batch run` starts, every few seconds while it runs, when it
/// waits on a halted line and when it ends; read by `Ledger.stations` for the station dashboard.
public struct StationStatus: Sendable, Hashable {
    /// What the station says it is doing.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Flashing, or ready to.
        case running
        /// Waiting for an operator to resume its halted line (`dfukit station resume`).
        case halted
        /// The run finished (or was stopped): the process has ended or is about to.
        case ended
    }

    /// The station's name (`--station`), as its claims and attempts carry it.
    public var station: String
    /// The ledger session of the process (`LedgerSession.text`), the row's key: one row per process.
    public var session: String
    /// The host the process runs on.
    public var host: String
    /// The process id on `host`.
    public var pid: Int
    /// The provisioning line the station works on (`--line`), when it has one.
    public var line: String?
    /// The radios (HCI controllers, BlueZ adapters) the station flashes through, by name; empty
    /// when it names none.
    public var radios: [String]
    /// What the station says it is doing.
    public var state: State
    /// When the process started (its first announcement).
    public var startedAt: Date
    /// When the station last announced itself (the ledger's clock).
    public var seenAt: Date

    /// A station's row with every field given (as the ledger reads it back).
    public init(station: String, session: String, host: String, pid: Int, line: String?, radios: [String],
                state: State, startedAt: Date, seenAt: Date) {
        self.station = station
        self.session = session
        self.host = host
        self.pid = pid
        self.line = line
        self.radios = radios
        self.state = state
        self.startedAt = startedAt
        self.seenAt = seenAt
    }

    /// The status of station `station` running as `session` (a ledger's `Ledger.session`, which
    /// gives the host and process); `seenAt` is stamped by the ledger when announced.
    public init(station: String, session: LedgerSession, line: String?, radios: [String] = [], state: State,
                startedAt: Date = Date()) {
        self.init(station: station, session: session.text, host: session.host, pid: Int(session.pid), line: line,
                  radios: radios, state: state, startedAt: startedAt, seenAt: startedAt)
    }

    /// `radios` as stored in the `radios` column: one name per line, NULL when empty.
    package var radiosText: String? { radios.isEmpty ? nil : radios.joined(separator: "\n") }

    /// `radios` from the `radios` column.
    package static func radios(fromText text: String?) -> [String] {
        text.map { $0.split(separator: "\n").map(String.init) } ?? []
    }
}
