import DFUGATT

/// The line controls: no new device (or retry) on a halted line, the halt rule checked after
/// every finished attempt, quarantine after too many failures.
extension BatchRunner {
    /// Before a new device or a retry: true when the line runs. On a halted line, with
    /// `WhenHalted.wait`, polls the ledger every `haltPollInterval` until a resume (or the batch
    /// stops); with `.exit`, stops the batch and returns false.
    func lineIsOpen() async -> Bool {
        var waited = false
        while true {
            if assignment.withLock({ $0.stopped }) || Task.isCancelled { return false }
            let halt: LineHalt?
            do {
                (halt, _) = try await ledgerCall("read the line's state") { try await self.ledger.lineHalt() }
            } catch {
                // An unreachable ledger stops the batch itself (`ledgerCall`); a refusal lets the line run.
                return ledgerFailure == nil
            }
            guard let halt else {
                // Every waiting slot sees the resume; the first one announces it, once per halt.
                let announced = counters.withLock { counters -> Bool in
                    defer { counters.announcedHalt = nil }
                    return counters.announcedHalt != nil
                }
                if waited && announced { onEvent(.lineResumed(line: plan.line.line ?? "")) }
                return true
            }
            let first = counters.withLock { counters -> Bool in
                guard counters.announcedHalt.map({ !$0.isSame(as: halt) }) ?? true else { return false }
                counters.announcedHalt = halt
                return true
            }
            if plan.line.whenHalted == .exit {
                counters.withLock { if $0.lineHalt == nil { $0.lineHalt = halt } }
                if first { onEvent(.lineHalted(halt, recordedHere: false, waiting: false)) }
                await stopQueue(reason: "\(halt); no new devices will be started, the running ones finish")
                return false
            }
            if first { onEvent(.lineHalted(halt, recordedHere: false, waiting: true)) }
            waited = true
            try? await Task.sleep(for: plan.line.haltPollInterval)
        }
    }

    /// After a finished attempt was recorded: when the line's rule holds over its last attempts in
    /// the ledger (every station's), records the halt (once, whoever sees it first).
    func checkHaltRule() async {
        guard let rule = plan.line.haltWhen, let line = plan.line.line else { return }
        do {
            let (outcomes, _) = try await ledgerCall("read line \(line)'s last attempts") {
                try await self.ledger.lineOutcomes(last: rule.window)
            }
            guard rule.holds(over: outcomes.map(\.failed)) else { return }
            let tripping = Array(outcomes.suffix(rule.window))
            let (recorded, _) = try await ledgerCall("record that line \(line) halted") {
                try await self.ledger.halt(rule: rule, attempts: tripping)
            }
            guard recorded else { return }
            let halt = LineHalt(line: line, rule: rule.description, station: nil, attempts: tripping.map(\.summary))
            counters.withLock {
                $0.halts += 1
                $0.announcedHalt = halt
            }
            onEvent(.lineHalted(halt, recordedHere: true, waiting: plan.line.whenHalted == .wait))
        } catch {
            // An unreachable ledger stops the batch itself (`ledgerCall`); a refused call leaves the line running.
        }
    }

    /// After a failed attempt was recorded: true when the device reached the quarantine limit
    /// (it is then quarantined in the ledger, and not retried).
    func quarantineIfDue(_ device: DeviceAddress) async -> Bool {
        guard let limit = plan.line.quarantineAfter else { return false }
        let key = device.description
        do {
            let (failures, _) = try await ledgerCall("count \(device)'s failed attempts") {
                try await self.ledger.failedAttempts(device: key)
            }
            guard failures >= limit else { return false }
            let (recorded, _) = try await ledgerCall("quarantine \(device)") {
                try await self.ledger.quarantine(device: key, failures: failures)
            }
            if recorded {
                counters.withLock { $0.quarantined += 1 }
                onEvent(.deviceQuarantined(device, failures: failures))
            }
            return true
        } catch {
            return false
        }
    }

    /// Before claiming: whether the device is quarantined (it is then skipped).
    func isQuarantined(_ device: DeviceAddress) async -> Bool {
        let key = device.description
        let quarantined = try? await ledgerCall("look up \(device)'s quarantine") {
            try await self.ledger.isQuarantined(device: key)
        }
        return quarantined?.0 ?? false
    }
}
