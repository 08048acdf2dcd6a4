import Foundation

/// Where the dashboard's data comes from and where its controls go: the seam between the HTTP
/// server and the ledger. The server only passes the source's JSON through (the shapes are
/// those of the StationDashboard article), so a test serves a fake, and the ledger adapter can
/// change without touching the server.
///
/// Every method may be called from many requests at once. Throw `DashboardSourceError` to choose
/// the answer's status (503 for `.unavailable`); any other error answers 500 with its description.
public protocol DashboardSource: Sendable {
    /// The snapshot, as JSON (`{"version": 1, "generatedAt": ..., "lines": [...], ...}`), over one
    /// line when `line` is given, else over the ledger; `controlsEnabled` is what its
    /// `controls.enabled` says (whether the server has a token).
    func snapshot(line: String?, controlsEnabled: Bool) async throws -> Data

    /// One device's history as JSON (`{"device": ..., "live": ..., "attempts": [...], "events": [...]}`),
    /// or nil when the ledger has nothing of `address` (the server answers 404).
    func deviceHistory(_ address: String) async throws -> Data?

    /// Waits until the ledger changes, or `timeout` passes: true on a change, false on the timeout.
    /// A change committed after the call began must end the wait (a watcher that counts changes
    /// remembers the count when the call begins); cancelling the calling task ends the wait too.
    /// The event stream calls it again as soon as it returns, and before it reads each snapshot,
    /// so that a change made while a snapshot is read is not lost.
    func waitForChange(timeout: Duration) async throws -> Bool

    /// Records that `operatorName` resumed the halted `line`, because of `reason`; false when the
    /// line is not halted (nothing recorded: the server answers 409).
    func resume(line: String, operator operatorName: String, reason: String?) async throws -> Bool

    /// Records that `operatorName` released the quarantined `device`, because of `reason`; false
    /// when it is not quarantined (nothing recorded: the server answers 409).
    func release(device: String, operator operatorName: String, reason: String?) async throws -> Bool
}

/// Why a `DashboardSource` could not answer, in words for the page and the operator.
public struct DashboardSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure: it chooses the HTTP status.
    public enum Kind: String, Sendable, Equatable {
        /// The data cannot be had now (the ledger is unreachable, or the source is not wired):
        /// 503, and the page keeps its last snapshot.
        case unavailable
        /// The source failed on this request: 500.
        case failed
    }

    /// What kind of failure.
    public var kind: Kind
    /// What failed, where, and what to do, e.g. "ledger postgresql://station@10.0.0.5/line:
    /// connection refused; is the server running?".
    public var message: String

    /// A failure of `kind`, in the words of `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The HTTP status the server answers with.
    public var status: HTTPStatus { kind == .unavailable ? .serviceUnavailable : .internalServerError }

    /// The message.
    public var description: String { message }
}
