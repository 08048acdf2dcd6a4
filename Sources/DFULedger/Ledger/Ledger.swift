import Foundation

/// The record of a provisioning line: which devices were claimed by which station, and every
/// attempt at flashing them with the result.
///
/// Implementations (`SQLiteLedger`, `PostgresLedger`) are safe to call from many tasks at once;
/// every write is committed and durable before its call returns, so a station killed at any
/// moment loses nothing it was told was written.
///
/// A station's loop over one device (after `releaseEarlierClaims(station:)` once at start):
///
/// ```swift
/// guard let claim = try await ledger.claim(device: address, packageSHA256: sha, station: "line-1") else {
///     return // done already, or being flashed by another station
/// }
/// var attempt = claim.nextAttemptNumber
/// while true {
///     let result = await flash(address)          // heartbeat(claim) every minute or so meanwhile
///     try await ledger.recordAttempt(Attempt(claim: claim, ..., attemptNumber: attempt))
///     if result.succeeded || attempt >= maxAttempts { break }
///     attempt += 1
/// }
/// try await ledger.release(claim)               // a no-op after a success: the device is done
/// ```
public protocol Ledger: AnyObject, Sendable {
    /// The ledger's URL without a password, for messages.
    var location: String { get }

    /// The session this instance writes its claims under (`LedgerOptions.session`): a station's
    /// `StationStatus` and `LiveDevice` rows carry its `text`.
    var session: LedgerSession { get }

    /// Claims `device` for flashing with the package `packageSHA256`, atomically across tasks,
    /// processes and (PostgreSQL) stations.
    ///
    /// Returns nil when the device is already done with this package (a succeeded attempt is
    /// recorded) or is held by a live claim (of any station, this one included). A released claim,
    /// or one whose lease ran out without a heartbeat, is taken over.
    ///
    /// With `includingDone` (a line with `skip-done: false`), a device done with the package is
    /// claimed too: it is flashed again, and is done again only once that succeeds.
    ///
    /// `id` becomes the claim's id. A call repeated with the same id while that claim is active
    /// returns it again instead of nil: a station that retries a claim whose answer it lost (the
    /// connection dropped after the commit) does not lock itself out of the device.
    func claim(device: String, packageSHA256: String, station: String, id: String,
               includingDone: Bool) async throws(LedgerError) -> Claim?

    /// Releases the active claims `station` holds under earlier processes that are provably gone
    /// (`LedgerSession.isProvablyGone`: on this host, and no longer running), and returns how many.
    ///
    /// For a station that starts again after a crash or `kill -9`: call it once, before the first
    /// `claim`, and the devices the dead process held are claimable at once instead of after their
    /// lease. Claims of a process that may still run (hung, stopped, or on another host under the
    /// same station name) are left to their lease: that process's lease gate is still open, and it
    /// would write to the device again when it wakes.
    func releaseEarlierClaims(station: String) async throws(LedgerError) -> Int

    /// Extends the claim's lease. Throws `claimLost` when another station has taken the device over
    /// (the lease ran out) or the device was marked done meanwhile.
    func heartbeat(_ claim: Claim) async throws(LedgerError)

    /// Records one attempt, and its signed audit record when given, committed together before
    /// returning. A succeeded attempt marks the device done with the package (in the same
    /// transaction): no later `claim` returns it again.
    func recordAttempt(_ attempt: Attempt, audit: SignedAuditRecord?) async throws(LedgerError)

    /// Gives up a claim that has not succeeded, so the device can be claimed again (by a rerun or
    /// another station). Releasing a claim that succeeded, or that was lost, changes nothing.
    func release(_ claim: Claim) async throws(LedgerError)

    /// Whether a succeeded attempt is recorded for `device` with the package.
    func isDone(device: String, packageSHA256: String) async throws(LedgerError) -> Bool

    /// The recorded attempts that match `filter`, in the order they were recorded.
    func attempts(_ filter: AttemptFilter) async throws(LedgerError) -> [Attempt]

    /// The attempts that match `filter`, in the order recorded, each with its audit record (nil
    /// when it has none; always nil in a ledger older than schema version 3).
    func auditEntries(_ filter: AttemptFilter) async throws(LedgerError) -> [AuditEntry]

    /// Records a line control (`LineEvent`) when it changes something, and says whether it did: a
    /// halt only on a running line, a resume only on a halted one, a quarantine only of a device
    /// not quarantined, a release only of a quarantined one (decided inside the write transaction,
    /// so two stations tripping the rule at once record one halt). The ledger stamps `at` and
    /// remembers its newest attempt: the halt rule and the failure count of a device look only at
    /// attempts after the line's last resume and the device's last release.
    func recordLineEvent(_ event: LineEvent) async throws(LedgerError) -> Bool

    /// The line controls recorded, in order; only `line`'s (and releases) when `line` is given.
    /// Empty in a ledger older than schema version 4.
    func lineEvents(line: String?) async throws(LedgerError) -> [LineEvent]

    /// The last `last` finished attempts (succeeded or failed) recorded for `line` by any
    /// station since the line was last resumed, oldest first.
    func lineOutcomes(line: String, last: Int) async throws(LedgerError) -> [LineOutcome]

    /// How many failed attempts `device` has with the package since it was last released from
    /// quarantine (all of them when it never was), on any station.
    func failedAttempts(device: String, packageSHA256: String) async throws(LedgerError) -> Int

    /// Counts over the attempts that match `filter`.
    func summary(_ filter: AttemptFilter) async throws(LedgerError) -> LedgerSummary

    // MARK: The station dashboard's feed (schema 5)

    /// Writes the station's row (`dfukit_stations`), one per process, replacing the row of the
    /// same `status.session`; `seenAt` becomes the ledger's now, and `startedAt` stays the
    /// first announcement's. A `batch run` announces itself `running` at start, again every few
    /// seconds (so the dashboard sees it alive), `halted` while it waits on a halted line, and
    /// `ended` when it exits.
    func announceStation(_ status: StationStatus) async throws(LedgerError)

    /// Every station row, oldest start first; empty in a ledger older than schema version 5.
    func stations() async throws(LedgerError) -> [StationStatus]

    /// Writes the live row of a device in flight (`dfukit_live`), replacing the row of the same
    /// device, package and session; `updatedAt` becomes the ledger's now. Recording the device's
    /// attempt (`recordAttempt`) or releasing its claim (`release`) through this instance
    /// deletes the row of this instance's session in the same transaction.
    func publishLive(_ device: LiveDevice) async throws(LedgerError)

    /// Deletes the live row of `device` with the package under `session` (`LedgerSession.text`),
    /// if there is one.
    func clearLive(device: String, packageSHA256: String, session: String) async throws(LedgerError)

    /// Every live row, oldest start first; empty in a ledger older than schema version 5.
    func liveDevices() async throws(LedgerError) -> [LiveDevice]

    /// Closes the connection; later calls fail with `cannotOpen`. Also done when the ledger is freed.
    func close() async
}

extension Ledger {
    /// A claim with a fresh id of a device not done with the package yet (see
    /// `claim(device:packageSHA256:station:id:includingDone:)`).
    public func claim(device: String, packageSHA256: String, station: String) async throws(LedgerError) -> Claim? {
        try await claim(device: device, packageSHA256: packageSHA256, station: station, id: UUID().uuidString,
                        includingDone: false)
    }

    /// A claim of a device not done with the package yet, under `id`.
    public func claim(device: String, packageSHA256: String, station: String, id: String) async throws(LedgerError) -> Claim? {
        try await claim(device: device, packageSHA256: packageSHA256, station: station, id: id, includingDone: false)
    }

    /// A claim with a fresh id; `includingDone` as in `claim(device:packageSHA256:station:id:includingDone:)`.
    public func claim(device: String, packageSHA256: String, station: String,
                      includingDone: Bool) async throws(LedgerError) -> Claim? {
        try await claim(device: device, packageSHA256: packageSHA256, station: station, id: UUID().uuidString,
                        includingDone: includingDone)
    }

    /// Counts over the attempts `filter` selects. Throws when the ledger cannot be read.
    public func summary(_ filter: AttemptFilter = .all) async throws(LedgerError) -> LedgerSummary {
        LedgerSummary(attempts: try await attempts(filter))
    }

    /// Records one attempt without an audit record (see `recordAttempt(_:audit:)`).
    public func recordAttempt(_ attempt: Attempt) async throws(LedgerError) {
        try await recordAttempt(attempt, audit: nil)
    }

    /// Every attempt, in the order recorded. Throws when the ledger cannot be read.
    public func attempts() async throws(LedgerError) -> [Attempt] {
        try await attempts(.all)
    }
}

extension LedgerURL {
    /// Opens the ledger this URL names (`SQLiteLedger` or `PostgresLedger`), creating its tables on
    /// first use unless `options.access` is `.existing`.
    public func open(_ options: LedgerOptions = LedgerOptions()) async throws(LedgerError) -> any Ledger {
        switch self {
        case .sqlite(let path):
            return try await SQLiteLedger(path: path, options: options)
        case .postgresql(let location):
            return try await PostgresLedger(location, options: options)
        }
    }
}
