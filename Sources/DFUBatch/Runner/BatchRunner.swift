import DFUEngine
import DFUGATT
import DFUProfile
import Foundation
import Synchronization

/// Flashes many devices at once (`dfukit batch run`): picks the devices (an explicit list, or
/// advertising devices that match the profile and are strong enough), runs up to
/// `concurrency` updates in parallel over the source's transports, retries with backoff,
/// runs the post-flash checks, and records every attempt in the ledger, which also keeps two
/// stations (or a rerun) from flashing a device twice.
public final class BatchRunner: Sendable {
    public struct Plan: Sendable {
        public var line: LineConfiguration
        public var profile: Profile
        public var images: [FlashImage]

        public init(line: LineConfiguration, profile: Profile, images: [FlashImage]) {
            self.line = line
            self.profile = profile
            self.images = images
        }
    }

    private let plan: Plan
    private let source: any BatchDeviceSource
    private let ledger: any BatchLedger
    private let onEvent: @Sendable (BatchEvent) -> Void
    private let queue = Mutex<DeviceQueue?>(nil)
    private let counters = Mutex(Counters())

    private struct Counters {
        var devices = 0, succeeded = 0, failed = 0, skipped = 0, attempts = 0
        /// Each concurrency slot's clock (simulated sources) and whether a worker holds it.
        var slotSeconds: [Double] = []
        var busySlots: Set<Int> = []
        var clock = BatchClock(startedAt: Date(), simulated: false)
    }

    public init(plan: Plan, source: any BatchDeviceSource, ledger: any BatchLedger,
                onEvent: @escaping @Sendable (BatchEvent) -> Void = { _ in }) {
        self.plan = plan
        self.source = source
        self.ledger = ledger
        self.onEvent = onEvent
    }

    /// Ctrl-C: start no new device; the ones running finish.
    public func stopStartingNewDevices() async {
        let current = queue.withLock { $0 }
        await current?.stop()
        onEvent(.stopping(reason: "no new devices will be started; the running ones finish"))
    }

    public func run() async throws(FlashError) -> BatchSummary {
        let started = ContinuousClock.now
        let devices = try await selectDevices()
        let target = plan.line.addresses.isEmpty ? min(plan.line.count ?? devices.count, devices.count) : devices.count
        let deviceQueue = DeviceQueue(devices: devices, target: target)
        queue.withLock { $0 = deviceQueue }
        let concurrency = max(1, plan.line.concurrency)
        counters.withLock {
            $0.slotSeconds = Array(repeating: 0, count: concurrency)
            $0.clock = BatchClock(startedAt: Date(), simulated: source.usesVirtualTime)
        }
        await withTaskGroup(of: Void.self) { group in
            for slot in 0..<concurrency {
                group.addTask { await self.work(slot: slot, queue: deviceQueue, concurrency: concurrency) }
            }
        }
        let stopped = await deviceQueue.stopped
        let wall = Double((ContinuousClock.now - started) / .seconds(1))
        return counters.withLock { counters in
            BatchSummary(devices: counters.devices, succeeded: counters.succeeded, failed: counters.failed,
                         skipped: counters.skipped, attempts: counters.attempts,
                         seconds: source.usesVirtualTime ? (counters.slotSeconds.max() ?? 0) : wall,
                         stoppedEarly: stopped)
        }
    }

    // MARK: - Devices

    private func selectDevices() async throws(FlashError) -> [DeviceAddress] {
        if !plan.line.addresses.isEmpty {
            var addresses: [DeviceAddress] = []
            for text in plan.line.addresses {
                guard let address = DeviceAddress(string: text) else {
                    throw FlashError(kind: .usage, message: "'\(text)' is not a device address")
                }
                addresses.append(address)
            }
            return addresses
        }
        let seen = try await source.scan()
        return seen.filter { advertisement in
            ProfileMatcher.matches(advertisement, plan.profile.match)
                && plan.line.minimumRSSI.map { advertisement.rssi >= $0 } ?? true
        }.map(\.address)
    }

    // MARK: - Workers

    private func work(slot worker: Int, queue: DeviceQueue, concurrency: Int) async {
        while let device = await queue.next() {
            // On a simulated clock a device starts on the slot that is free earliest, whatever
            // task happens to run it; on a real one each worker is its own slot.
            let slot = counters.withLock { counters -> Int in
                counters.devices += 1
                guard source.usesVirtualTime else { return worker }
                let free = counters.slotSeconds.indices.filter { !counters.busySlots.contains($0) }
                let slot = free.min { counters.slotSeconds[$0] < counters.slotSeconds[$1] } ?? worker
                counters.busySlots.insert(slot)
                return slot
            }
            let counted = await process(device, slot: slot, concurrency: concurrency)
            counters.withLock { _ = $0.busySlots.remove(slot) }
            await queue.finished(counted: counted)
        }
    }

    /// Returns whether the device counts as done.
    private func process(_ device: DeviceAddress, slot: Int, concurrency: Int) async -> Bool {
        let claimed: Bool
        do {
            claimed = try await ledger.claim(device: device.description)
        } catch {
            onEvent(.deviceSkipped(device, reason: "the ledger could not claim it: \(error)"))
            counters.withLock { $0.skipped += 1 }
            return false
        }
        guard claimed else {
            onEvent(.deviceSkipped(device, reason: "already done with this package, or claimed by another station"))
            counters.withLock { $0.skipped += 1 }
            return true
        }
        if let rule = plan.line.skipInstalled {
            let found = await InstalledVersionProbe(rule: rule, plan: plan, source: source)
                .probe(device, attempt: 1, concurrency: concurrency)
            let skipped = counters.withLock { counters -> AttemptRecord? in
                let stamped = found.skipped.map { counters.clock.stamp($0, slotSeconds: counters.slotSeconds[slot]) }
                counters.slotSeconds[slot] += found.seconds
                if stamped != nil { counters.skipped += 1 }
                return stamped
            }
            if let skipped {
                try? await ledger.record(skipped)
                onEvent(.deviceSkipped(device, reason: "it runs the target firmware already (\(skipped.deviceVersion ?? "?"))"))
                return true
            }
        }
        let attempts = 1 + max(0, plan.line.retries)
        for attempt in 1...attempts {
            if attempt > 1 {
                let delay = plan.line.delay(beforeAttempt: attempt)
                if source.usesVirtualTime {
                    counters.withLock { $0.slotSeconds[slot] += Double(delay / .seconds(1)) }
                } else {
                    try? await Task.sleep(for: delay)
                }
            }
            onEvent(.deviceStarted(device, attempt: attempt, slot: slot))
            var outcome = await attemptOnce(device, attempt: attempt, concurrency: concurrency)
            counters.withLock {
                $0.attempts += 1
                outcome.record = $0.clock.stamp(outcome.record, slotSeconds: $0.slotSeconds[slot])
                $0.slotSeconds[slot] += outcome.record.seconds
            }
            try? await ledger.record(outcome.record)
            onEvent(.deviceFinished(device, succeeded: outcome.record.result == .succeeded, attempt: attempt,
                                    seconds: outcome.record.seconds, error: outcome.record.errorMessage))
            if outcome.record.result == .succeeded {
                counters.withLock { $0.succeeded += 1 }
                return true
            }
            if outcome.record.result == .cancelled || Task.isCancelled { break }
            if attempt < attempts {
                onEvent(.retryScheduled(device, attempt: attempt + 1, after: plan.line.delay(beforeAttempt: attempt + 1),
                                        reason: outcome.record.errorMessage ?? "failed"))
            }
        }
        counters.withLock { $0.failed += 1 }
        await ledger.release(device: device.description)
        return false
    }

    private struct Outcome {
        var record: AttemptRecord
    }

    private func attemptOnce(_ device: DeviceAddress, attempt: Int, concurrency: Int) async -> Outcome {
        let startedAt = Date().timeIntervalSince1970
        var record = AttemptRecord(device: device.description, attempt: attempt, startedAt: startedAt, endedAt: startedAt,
                                   seconds: 0, bytes: 0, result: .failed, errorKind: nil, errorMessage: nil)
        let transport: any GATTTransport
        do {
            transport = try source.transport(for: device, attempt: attempt, concurrency: concurrency)
        } catch {
            record.errorKind = error.kind.rawValue
            record.errorMessage = error.description
            return Outcome(record: record)
        }
        let options = FlashOptions(parameters: plan.line.parameters)
        let onEvent = self.onEvent
        let session = FlashSession(profile: plan.profile, images: plan.images, transport: transport, address: device,
                                   options: options) { event in
            if case let .progress(_, done, total, _) = event { onEvent(.progress(device, done: done, total: total)) }
        }
        let report = await runWithTimeout(session)
        record.seconds = report.seconds
        record.bytes = report.bytes
        record.endedAt = Date().timeIntervalSince1970
        if let error = report.error {
            record.result = error.kind == .cancelled ? .cancelled : .failed
            record.errorKind = error.kind.rawValue
            record.errorMessage = error.description
            return Outcome(record: record)
        }
        if report.seconds > Double(plan.line.deviceTimeout / .seconds(1)) {
            record.errorKind = "timeout"
            record.errorMessage = "the update took \(report.seconds) s, more than the line's timeout"
            return Outcome(record: record)
        }
        for check in plan.line.checks {
            let checkTransport: any GATTTransport
            do {
                checkTransport = try source.transport(for: device, attempt: attempt, concurrency: concurrency)
            } catch {
                record.errorKind = "check"
                record.errorMessage = error.description
                return Outcome(record: record)
            }
            if let failure = await CommandExecution.check(check.command, expect: check.expect, image: plan.images[0],
                                                          profile: plan.profile, transport: checkTransport,
                                                          address: device, options: options) {
                record.errorKind = "check"
                record.errorMessage = failure
                return Outcome(record: record)
            }
        }
        record.result = .succeeded
        return Outcome(record: record)
    }

    /// On a real transport the line's timeout is wall-clock time: the session is cancelled
    /// when it runs out. On a simulated one it is checked against simulated time afterwards.
    private func runWithTimeout(_ session: sending FlashSession) async -> FlashReport {
        guard !source.usesVirtualTime else { return await session.run() }
        let timeout = plan.line.deviceTimeout
        let task = Task { await session.run() }
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            task.cancel()
        }
        let report = await task.value
        watchdog.cancel()
        return report
    }
}
