import Foundation

/// The clock a batch's attempts are timed on. On a real transport an attempt's start and end
/// are the wall clock's. On a simulated one (`sim:`) the attempts run in an instant of wall time
/// but take simulated seconds, added up per concurrency slot: each attempt is then stamped on a
/// simulated timeline that starts when the batch started, so that reports over the ledger (time
/// spans, devices per hour, the stations' timeline) read as the simulated line would have run.
struct BatchClock: Sendable {
    let startedAt: Date
    let simulated: Bool

    /// `record` with its clock set and, when simulated, its times on the simulated timeline:
    /// it started when its slot had run `slotSeconds` and took its own `seconds`.
    func stamp(_ record: AttemptRecord, slotSeconds: Double) -> AttemptRecord {
        var stamped = record
        stamped.clock = simulated ? .simulated : .wall
        guard simulated else { return stamped }
        stamped.startedAt = startedAt.timeIntervalSince1970 + slotSeconds
        stamped.endedAt = stamped.startedAt + record.seconds
        return stamped
    }
}
