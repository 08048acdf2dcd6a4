import DFUEngine
import DFUGATT
import DFUProfile
import Foundation
import Synchronization

/// Flashes many devices at once (`dfukit batch run`): picks the devices (an explicit list, or
/// advertising devices that match the profile and are strong enough), gives each to one of the
/// station's radios (`RadioAssignment`), runs up to `concurrency` updates in parallel on each
/// radio, retries with backoff, runs the post-flash checks, and records every attempt in the
/// ledger, which also keeps two stations (or a rerun) from flashing a device twice.
public final class BatchRunner: Sendable {
    /// What to flash: the line, its profile (loaded) and the package's images.
    public struct Plan: Sendable {
        /// The line: devices, concurrency, retries, checks, ledger.
        public var line: LineConfiguration
        /// The profile every device is updated with.
        public var profile: Profile
        /// The images flashed to each device, in order.
        public var images: [FlashImage]

        /// A plan to flash `images` with `profile` as `line` says.
        public init(line: LineConfiguration, profile: Profile, images: [FlashImage]) {
            self.line = line
            self.profile = profile
            self.images = images
        }
    }

    /// A radio as the runner holds it: its name (nil for the one source of `init(plan:source:...)`),
    /// its devices, and what its transports said of it.
    struct Radio: Sendable {
        let name: String?
        let source: any BatchDeviceSource
        let health = RadioHealth()

        /// How events and messages name it (the one unnamed radio: `radio-1`).
        var label: String { name ?? "radio-1" }
    }

    let plan: Plan
    let radios: [Radio]
    let ledger: any BatchLedger
    let ledgerRetry: LedgerRetryPolicy
    let onEvent: @Sendable (BatchEvent) -> Void
    /// The signal strength the scan heard from each device it picked (dBm), for `deviceLink`.
    let scannedRSSI = Mutex<[DeviceAddress: Int]>([:])
    let assignment: Mutex<RadioAssignment>
    /// One per radio: told whenever a device ends, a radio fails or the batch stops.
    let wakeups: [AsyncStream<Void>]
    private let wakers: [AsyncStream<Void>.Continuation]
    let counters = Mutex(Counters())

    struct Counters {
        var devices = 0, succeeded = 0, failed = 0, cancelled = 0, skipped = 0, attempts = 0
        /// Attempts whose record the ledger never confirmed (it stayed unreachable): a record whose
        /// answer was lost may still have been written.
        var unconfirmed = 0
        /// Devices whose claim was lost while this station worked on them.
        var claimsLost = 0
        /// Why the ledger counts as unreachable, once it does: no device is started after that.
        var ledgerFailure: String?
        /// Each concurrency slot's clock (simulated sources) and whether a worker holds it.
        var slotSeconds: [Double] = []
        var busySlots: Set<Int> = []
        var clock = BatchClock(startedAt: Date(), simulated: false)
        /// The halt this station last told of (once per halt, not once per worker).
        var announcedHalt: LineHalt?
        /// The halt that ended the run (`WhenHalted.exit`).
        var lineHalt: LineHalt?
        var halts = 0, quarantined = 0, quarantinedSkipped = 0
        /// Each radio's share.
        var radios: [BatchRadioSummary] = []
    }

    /// A runner for `plan` that takes devices from `source` (one radio, unnamed), records in
    /// `ledger` (retrying a failed ledger call as `ledgerRetry` says) and reports to `onEvent`,
    /// from several tasks at once.
    public convenience init(plan: Plan, source: any BatchDeviceSource, ledger: any BatchLedger,
                            ledgerRetry: LedgerRetryPolicy = LedgerRetryPolicy(),
                            onEvent: @escaping @Sendable (BatchEvent) -> Void = { _ in }) {
        self.init(plan: plan, units: [Radio(name: nil, source: source)], ledger: ledger, ledgerRetry: ledgerRetry,
                  onEvent: onEvent)
    }

    /// A runner for `plan` over a station's `radios` (each device on one of them, up to the line's
    /// concurrency at once on each), recording and reporting as `init(plan:source:...)`. The radios
    /// must agree on their clock (all simulated or none); `run` refuses them otherwise.
    public convenience init(plan: Plan, radios: [BatchRadio], ledger: any BatchLedger,
                            ledgerRetry: LedgerRetryPolicy = LedgerRetryPolicy(),
                            onEvent: @escaping @Sendable (BatchEvent) -> Void = { _ in }) {
        self.init(plan: plan, units: radios.map { Radio(name: $0.name, source: $0.source) }, ledger: ledger,
                  ledgerRetry: ledgerRetry, onEvent: onEvent)
    }

    private init(plan: Plan, units: [Radio], ledger: any BatchLedger, ledgerRetry: LedgerRetryPolicy,
                 onEvent: @escaping @Sendable (BatchEvent) -> Void) {
        self.plan = plan
        self.radios = units
        self.ledger = ledger
        self.ledgerRetry = ledgerRetry
        self.onEvent = onEvent
        // A listed device counts once it is done; without a list, the count (if any) is the target.
        let target = plan.line.addresses.isEmpty ? plan.line.count : nil
        assignment = Mutex(RadioAssignment(radios: units.count, target: target))
        let streams = units.map { _ in AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1)) }
        wakeups = streams.map(\.stream)
        wakers = streams.map(\.continuation)
    }

    /// Whether the radios run on simulated clocks (they all agree: `run` checks it).
    var usesVirtualTime: Bool { radios.first?.source.usesVirtualTime ?? false }

    /// Ctrl-C: start no new device; the ones running finish.
    public func stopStartingNewDevices() async {
        await stopQueue(reason: "no new devices will be started; the running ones finish")
    }

    func stopQueue(reason: String) async {
        assignment.withLock { $0.stop() }
        wakeAllRadios()
        onEvent(.stopping(reason: reason))
    }

    /// Tells every radio that something changed (a device ended, a radio failed, the batch stopped).
    func wakeAllRadios() {
        for waker in wakers { waker.yield() }
    }

    /// Runs the batch to the end and says how it went. A failed device does not throw; it throws
    /// a `FlashError` before any device is touched when a listed address is malformed, there is
    /// no radio or the radios mix simulated and real clocks (`.usage`), or no radio can scan for
    /// devices. A radio that fails later fails only its own devices (`BatchEvent.radioFailed`).
    public func run() async throws(FlashError) -> BatchSummary {
        let started = ContinuousClock.now
        try checkRadios()
        let budget = max(1, plan.line.concurrency)
        counters.withLock {
            $0.slotSeconds = Array(repeating: 0, count: budget * radios.count)
            $0.clock = BatchClock(startedAt: Date(), simulated: usesVirtualTime)
            $0.radios = radios.map { BatchRadioSummary(name: $0.label) }
        }
        try await assignFirstDevices()
        await withTaskGroup(of: Void.self) { group in
            for radio in radios.indices {
                group.addTask { await self.runRadio(radio, budget: budget) }
            }
        }
        for waker in wakers { waker.finish() }
        let stopped = assignment.withLock { $0.stopped }
        let failures = assignment.withLock { state in radios.indices.map { state.failure(of: $0) } }
        let wall = Double((ContinuousClock.now - started) / .seconds(1))
        return counters.withLock { counters in
            var summary = BatchSummary(
                devices: counters.devices, succeeded: counters.succeeded, failed: counters.failed,
                cancelled: counters.cancelled, skipped: counters.skipped, attempts: counters.attempts,
                seconds: usesVirtualTime ? (counters.slotSeconds.max() ?? 0) : wall,
                stoppedEarly: stopped, ledgerFailure: counters.ledgerFailure,
                unconfirmedRecords: counters.unconfirmed, claimsLost: counters.claimsLost,
                lineHalt: counters.lineHalt, halts: counters.halts, quarantined: counters.quarantined,
                quarantinedSkipped: counters.quarantinedSkipped)
            summary.radios = counters.radios
            for (index, failure) in failures.enumerated() { summary.radios[index].failure = failure }
            return summary
        }
    }

    /// Counts for the whole batch and for the radio at once.
    func tally(radio: Int, _ change: (inout Counters) -> Void, _ radioChange: (inout BatchRadioSummary) -> Void) {
        counters.withLock {
            change(&$0)
            radioChange(&$0.radios[radio])
        }
    }

    /// Claims the device, makes up to `1 + retries` attempts while keeping the claim alive, records
    /// each attempt, and releases the claim unless the device is done. Returns whether the device
    /// counts as done.
    func process(_ device: DeviceAddress, seat: Seat) async -> Bool {
        let key = device.description
        tally(radio: seat.radio, { $0.devices += 1 }, { $0.devices += 1 })
        if await isQuarantined(device) {
            onEvent(.deviceSkipped(device, reason: "it is quarantined (release it with 'dfukit station release')"))
            counters.withLock { $0.quarantinedSkipped += 1 }
            return false
        }
        let claimSentAt: ContinuousClock.Instant
        do {
            let (claimed, sentAt) = try await ledgerCall("claim \(device)") { try await self.ledger.claim(device: key) }
            guard claimed else {
                onEvent(.deviceSkipped(device, reason: "already done with this package, or claimed by another station"))
                tally(radio: seat.radio, { $0.skipped += 1 }, { $0.skipped += 1 })
                return true
            }
            claimSentAt = sentAt
        } catch {
            onEvent(.deviceSkipped(device, reason: "the ledger could not claim it: \(error)"))
            tally(radio: seat.radio, { $0.skipped += 1 }, { $0.skipped += 1 })
            return false
        }
        let keeper = ClaimKeeper(gate: LeaseGate(device: device, lease: plan.line.lease, claimSentAt: claimSentAt))
        let renewal = Task { await self.keepClaimAlive(device, keeper) }
        let expiry = Task { await Self.loseWhenLeaseRunsOut(keeper) }
        let outcome = await attempts(device, seat: seat, keeper: keeper)
        renewal.cancel()
        expiry.cancel()
        switch outcome {
        case .skipped:
            return true
        case .succeeded:
            tally(radio: seat.radio, { $0.succeeded += 1 }, { $0.succeeded += 1 })
            return true
        case .failed:
            tally(radio: seat.radio, { $0.failed += 1 }, { $0.failed += 1 })
        case .cancelled:
            tally(radio: seat.radio, { $0.cancelled += 1 }, { $0.cancelled += 1 })
        }
        if let reason = keeper.lostReason {
            counters.withLock { $0.claimsLost += 1 }
            onEvent(.claimLost(device, reason: reason))
        }
        // Also after a lost claim: releasing changes only a claim row that is still this claim's
        // (no other station took the device), which then does not wait out its lease.
        do {
            _ = try await ledgerCall("release \(device)") { try await self.ledger.release(device: key) }
        } catch {
            onEvent(.ledgerWriteFailed(device, operation: "release the claim", error: "\(error)"))
        }
        return false
    }

    /// How a claimed device ended.
    private enum DeviceOutcome {
        /// It runs the target already (`skip-installed`), recorded as skipped.
        case skipped
        /// An attempt succeeded and the ledger has it.
        case succeeded
        /// The last attempt failed.
        case failed
        /// The last attempt was cancelled (recorded `cancelled`).
        case cancelled
    }

    /// With `skip-installed`, what the probe at the start of the first attempt found: true when
    /// the device runs the target already and a skipped attempt was recorded. The probe's time
    /// counts on the slot either way.
    private func recordIfSkipped(_ found: InstalledVersionProbe.Finding, device: DeviceAddress, seat: Seat) async -> Bool {
        let skipped = counters.withLock { counters -> AttemptRecord? in
            var stamped = found.skipped.map { counters.clock.stamp($0, slotSeconds: counters.slotSeconds[seat.slot]) }
            stamped?.radio = radios[seat.radio].name
            counters.slotSeconds[seat.slot] += found.seconds
            return stamped
        }
        guard let skipped else { return false }
        do {
            _ = try await ledgerCall("record skipped \(device)") { try await self.ledger.record(skipped) }
        } catch {
            counters.withLock { $0.unconfirmed += 1 }
            onEvent(.ledgerWriteFailed(device, operation: "record skipped (\(skipped.deviceVersion ?? "?"))",
                                       error: "\(error)"))
            return false
        }
        tally(radio: seat.radio, { $0.skipped += 1 }, { $0.skipped += 1 })
        onEvent(.deviceSkipped(device, reason: "it runs the target firmware already (\(skipped.deviceVersion ?? "?"))"))
        return true
    }

    /// The attempts at one claimed device: skipped when the first one's probe finds the target
    /// installed; succeeded once one succeeded and was recorded.
    private func attempts(_ device: DeviceAddress, seat: Seat, keeper: ClaimKeeper) async -> DeviceOutcome {
        let attempts = 1 + max(0, plan.line.retries)
        for attempt in 1...attempts {
            // A retry is a new start: none on a halted line (the claim is kept alive meanwhile),
            // none on a radio that failed (it stays on its radio: no device is on two).
            if attempt > 1, !(await lineIsOpen()) { break }
            if attempt > 1, assignment.withLock({ $0.failure(of: seat.radio) }) != nil { break }
            if attempt > 1 {
                let delay = plan.line.delay(beforeAttempt: attempt)
                if usesVirtualTime {
                    counters.withLock { $0.slotSeconds[seat.slot] += Double(delay / .seconds(1)) }
                } else {
                    try? await Task.sleep(for: delay)
                }
            }
            // No attempt starts on a claim that is gone, a ledger that is gone, or a batch cancelled.
            guard keeper.lostReason == nil, ledgerFailure == nil, !Task.isCancelled else { break }
            let outcome = await keeper.runAttempt {
                await self.attemptOnce(device, attempt: attempt, seat: seat, keeper: keeper)
            }
            var record: AttemptRecord
            switch outcome {
            case .skipped: return .skipped
            case .notStarted: return .failed
            case let .attempted(attempted): record = attempted
            }
            if let lost = keeper.lostReason {
                // Never a success: the device may already be another station's.
                record.result = .cancelled
                record.errorKind = "claim-lost"
                record.errorMessage = "stopped: this station lost its claim on the device (\(lost))"
            }
            counters.withLock {
                $0.attempts += 1
                $0.radios[seat.radio].attempts += 1
                record = $0.clock.stamp(record, slotSeconds: $0.slotSeconds[seat.slot])
                $0.slotSeconds[seat.slot] += record.seconds
            }
            let recorded: Bool
            let finished = record
            do {
                _ = try await ledgerCall("record attempt \(attempt) on \(device)") { try await self.ledger.record(finished) }
                recorded = true
            } catch {
                recorded = false
                counters.withLock { $0.unconfirmed += 1 }
                onEvent(.ledgerWriteFailed(device, operation: "record attempt \(attempt) (\(record.result.rawValue))",
                                           error: "\(error)"))
            }
            onEvent(.deviceFinished(device, succeeded: record.result == .succeeded, attempt: attempt,
                                    seconds: record.seconds, error: record.errorMessage))
            if recorded, record.result == .succeeded || record.result == .failed { await checkHaltRule() }
            if recorded, record.result == .failed, await quarantineIfDue(device) { return .failed }
            // A success the ledger does not know of is not done: another run flashes it again.
            if record.result == .succeeded { return recorded ? .succeeded : .failed }
            if record.result == .cancelled { return .cancelled }
            if Task.isCancelled || keeper.lostReason != nil { break }
            if attempt < attempts {
                onEvent(.retryScheduled(device, attempt: attempt + 1, after: plan.line.delay(beforeAttempt: attempt + 1),
                                        reason: record.errorMessage ?? "failed"))
            }
        }
        return .failed
    }

    /// What one attempt came to.
    private enum Outcome: Sendable {
        /// The probe found the target installed, and the ledger recorded the device as skipped.
        case skipped
        /// The ledger did not take the probe's `skipped` record and is unreachable: no update starts.
        case notStarted
        /// An update was attempted (and, when it was verified, checked): its record.
        case attempted(AttemptRecord)
    }

    /// One attempt over one device session: on the first, with `skip-installed`, the probe; then
    /// the update and the post-flash checks, on the same link where the protocol allows it (a
    /// check after an update that left the device rebooting waits for it and reconnects).
    private func attemptOnce(_ device: DeviceAddress, attempt: Int, seat: Seat, keeper: ClaimKeeper) async -> Outcome {
        let radio = radios[seat.radio]
        let transport: any GATTTransport
        do {
            // The radio's watch under the lease gate: the gate's refusals say nothing of the radio.
            let base = try radio.source.transport(for: device, attempt: attempt, concurrency: seat.budget)
            transport = LeaseGatedTransport(RadioWatchTransport(base, health: radio.health), gate: keeper.gate)
        } catch {
            onEvent(.deviceStarted(device, attempt: attempt, slot: seat.slot, radio: radio.name))
            let now = Date().timeIntervalSince1970
            var record = AttemptRecord(device: device.description, attempt: attempt, startedAt: now, endedAt: now,
                                       seconds: 0, bytes: 0, result: .failed, errorKind: nil, errorMessage: nil)
            record.errorKind = error.kind.rawValue
            record.errorMessage = error.description
            record.radio = radio.name
            return .attempted(record)
        }
        let onEvent = self.onEvent
        let rssi = scannedRSSI.withLock { $0[device] }
        let options = FlashOptions(parameters: plan.line.parameters, attemptTimeout: plan.line.deviceTimeout)
        let session = DeviceSession(profile: plan.profile, transport: transport, address: device, options: options) { event in
            switch event {
            case let .progress(_, done, total, _): onEvent(.progress(device, done: done, total: total))
            case let .phase(name, .entered): onEvent(.devicePhase(device, phase: name))
            case let .connected(_, mtu): onEvent(.deviceLink(device, mtu: mtu, phy: nil, rssi: rssi))
            case let .linkGranted(grant): onEvent(.deviceLink(device, mtu: grant.mtu, phy: grant.txPHY?.rawValue, rssi: rssi))
            default: break
            }
        }
        var versionBefore: String?
        if attempt == 1, let rule = plan.line.skipInstalled {
            let found = await InstalledVersionProbe(rule: rule, plan: plan).probe(device, attempt: attempt, on: session)
            versionBefore = found.version
            if await recordIfSkipped(found, device: device, seat: seat) {
                await session.close()
                return .skipped
            }
            if ledgerFailure != nil {
                await session.close()
                return .notStarted
            }
        }
        onEvent(.deviceStarted(device, attempt: attempt, slot: seat.slot, radio: radio.name))
        var record = await updateAndCheck(device, attempt: attempt, on: session, keeper: keeper)
        record.versionBefore = versionBefore
        record.radio = radio.name
        await session.close()
        // The attempt found the radio itself unusable: it fails only its own devices.
        if let failure = radio.health.failure {
            radioFailed(seat.radio, reason: failure)
            if record.result == .failed {
                record.errorMessage = (record.errorMessage ?? "failed") + " (radio \(radio.label) failed)"
            }
        }
        return .attempted(record)
    }

    /// The update, then (when it succeeded) the line's checks, over `session`.
    private func updateAndCheck(_ device: DeviceAddress, attempt: Int, on session: DeviceSession,
                                keeper: ClaimKeeper) async -> AttemptRecord {
        let startedAt = Date().timeIntervalSince1970
        var record = AttemptRecord(device: device.description, attempt: attempt, startedAt: startedAt, endedAt: startedAt,
                                   seconds: 0, bytes: 0, result: .failed, errorKind: nil, errorMessage: nil)
        let (report, timedOut) = await runWithTimeout(FlashSession(on: session, profile: plan.profile, images: plan.images),
                                                      keeper: keeper)
        record.bytes = report.bytes
        record.deviceHolds = report.deviceHolds.map(\.rawValue)
        record.evidence = report.evidence
        record.link = report.link
        record.retries = report.retries
        record.resumes = report.resumes
        record.endedAt = Date().timeIntervalSince1970
        // The clock the attempt is recorded on: simulated seconds on a simulated source, otherwise
        // the wall clock (a `realtime=2` fleet's session counts simulated seconds, twice the wall's).
        record.seconds = usesVirtualTime ? report.seconds : max(0, record.endedAt - startedAt)
        if let error = report.error {
            if timedOut && error.kind == .cancelled {
                // The line's watchdog stopped it, not an operator: a failed attempt, retried and
                // counted by the halt rule like the engine's own timeout.
                record.errorKind = FlashError.Kind.timeout.rawValue
                record.errorMessage = "device \(device), the attempt reached the line's time bound of "
                    + "\(plan.line.deviceTimeout / .seconds(1)) s (--timeout) and was stopped "
                    + "after \(report.bytes) image bytes had reached the device"
                return record
            }
            record.result = error.kind == .cancelled ? .cancelled : .failed
            record.errorKind = error.kind.rawValue
            record.errorMessage = error.description
            return record
        }
        if report.seconds > Double(plan.line.deviceTimeout / .seconds(1)) {
            record.errorKind = "timeout"
            record.errorMessage = "the update took \(report.seconds) s, more than the line's timeout"
            return record
        }
        for check in plan.line.checks {
            if let failure = await CommandExecution.check(check.command, expect: check.expect, image: plan.images[0],
                                                          on: session) {
                record.errorKind = "check"
                record.errorMessage = failure
                return record
            }
        }
        record.result = .succeeded
        return record
    }

    /// On a real transport the line's timeout is wall-clock time: the attempt is cancelled when
    /// it runs out during the update, and `timedOut` says so (the caller records a failed
    /// `timeout` attempt, not a cancelled one). On a simulated one it is checked against
    /// simulated time afterwards.
    private func runWithTimeout(_ update: FlashSession, keeper: ClaimKeeper) async -> (report: FlashReport, timedOut: Bool) {
        guard !usesVirtualTime else { return (await update.run(), false) }
        let timeout = plan.line.deviceTimeout
        let fired = Mutex(false)
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            fired.withLock { $0 = true }
            keeper.cancelAttempt()
        }
        let report = await update.run()
        watchdog.cancel()
        return (report, fired.withLock { $0 })
    }
}
