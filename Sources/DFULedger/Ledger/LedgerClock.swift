import Foundation

/// The time a ledger writes into claims and compares leases against.
///
/// `system` is the real clock; for PostgreSQL it means the *server's* clock, so stations whose
/// clocks disagree still agree on when a lease ran out. Tests inject a clock they move by hand.
public struct LedgerClock: Sendable {
    let injected: (@Sendable () -> Date)?

    /// The real clock (the server's for PostgreSQL).
    public static let system = LedgerClock(injected: nil)

    /// A clock that reads `now` on every call (tests use one they can move forward).
    package static func custom(_ now: @escaping @Sendable () -> Date) -> LedgerClock {
        LedgerClock(injected: now)
    }

    /// The current time by this clock (the local clock when `system`).
    public func now() -> Date { injected?() ?? Date() }

    /// Whether this is an injected clock.
    var isInjected: Bool { injected != nil }
}
