import DFUGATT
import Synchronization

/// Whether this station may still write to a device it claimed: the station's own, pessimistic
/// idea of when its lease on the device ends.
///
/// The ledger extends a lease from the moment it *receives* a claim or heartbeat, and the
/// station cannot know when that was; it only knows when it *sent* the call. So the gate's
/// deadline is the send time of the last claim or heartbeat that succeeded, plus the lease,
/// minus a safety margin (for clock drift between station and ledger, and for the time between
/// the check and the bytes leaving). Time is read on a monotonic clock that keeps running while
/// the process is stopped: a station frozen with SIGSTOP past its lease finds the gate shut when
/// it is continued, before it writes a single byte.
public final class LeaseGate: Sendable {
    /// A monotonic clock; tests pass one they move by hand.
    public typealias Now = @Sendable () -> ContinuousClock.Instant

    private struct State {
        var deadline: ContinuousClock.Instant
        var revoked: String?
    }

    /// The device the claim is on.
    public let device: DeviceAddress
    /// How long the ledger keeps the claim without a heartbeat.
    public let lease: Duration
    /// How long before the lease runs out the gate stops allowing writes, to allow for clock drift
    /// and a heartbeat in flight.
    public let margin: Duration
    private let now: Now
    private let state: Mutex<State>

    /// A gate for a claim whose request was sent at `claimSentAt`.
    public init(device: DeviceAddress, lease: Duration, claimSentAt: ContinuousClock.Instant,
                margin: Duration? = nil, now: @escaping Now = { .now }) {
        self.device = device
        self.lease = lease
        let margin = margin ?? Self.margin(for: lease)
        self.margin = margin
        self.now = now
        state = Mutex(State(deadline: claimSentAt + lease - margin))
    }

    /// The default safety margin: a sixth of the lease, at most 30 s.
    public static func margin(for lease: Duration) -> Duration {
        min(lease / 6, .seconds(30))
    }

    /// When writes stop being allowed (unless a heartbeat renews the lease first).
    public var deadline: ContinuousClock.Instant { state.withLock { $0.deadline } }

    /// Why the gate is shut for good (the claim was lost, or the deadline passed and a check or
    /// renewal saw it), if it is.
    package var revokedReason: String? { state.withLock { $0.revoked } }

    /// A heartbeat sent at `sentAt` succeeded: the lease runs from then. A renewal confirmed
    /// only after the deadline passed does not reopen the gate: once this station could not be
    /// sure of its claim it stays off the device (a process continued after SIGSTOP may be
    /// answered "renewed" because no other station happened to take the device meanwhile).
    public func renewed(sentAt: ContinuousClock.Instant) {
        let current = now()
        state.withLock { state in
            guard state.revoked == nil else { return }
            guard current < state.deadline else {
                state.revoked = Self.ranOut(lease)
                return
            }
            state.deadline = max(state.deadline, sentAt + lease - margin)
        }
    }

    private static func ranOut(_ lease: Duration) -> String {
        "its lease of \(lease) may have run out: no heartbeat was confirmed in time"
    }

    /// Shuts the gate for good: the claim is lost, or the attempt is being abandoned.
    package func revoke(_ reason: String) {
        state.withLock { state in
            if state.revoked == nil { state.revoked = reason }
        }
    }

    /// Whether a write may start now.
    package var isOpen: Bool { reasonShut() == nil }

    /// Throws when a write must not start: the gate was revoked or the local deadline passed.
    public func check() throws(GATTError) {
        if let reason = reasonShut() {
            throw GATTError(.transportUnavailable, address: device.description,
                            detail: "nothing written: this station no longer holds its claim on the device (\(reason))")
        }
    }

    private func reasonShut() -> String? {
        let current = now()
        return state.withLock { state in
            if let revoked = state.revoked { return revoked }
            guard current < state.deadline else {
                // For good: a later renewal does not reopen it.
                state.revoked = Self.ranOut(lease)
                return state.revoked
            }
            return nil
        }
    }
}
