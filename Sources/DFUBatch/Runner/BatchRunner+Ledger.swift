import DFUGATT

/// The runner's ledger calls: retried with back-off, claims kept alive, an unreachable ledger
/// turned into a stopped batch.
extension BatchRunner {
    /// The ledger has stayed unreachable (`LedgerRetryPolicy.giveUpAfter` of retries).
    struct LedgerUnreachable: Error, CustomStringConvertible {
        var operation: String
        var tries: Int
        var lastError: String
        /// False when the call gave up only because its own deadline (a lease) came first.
        var policyExhausted: Bool
        var description: String { "could not \(operation) after \(tries) tries: \(lastError)" }
    }

    /// Why the ledger counts as unreachable, once it does.
    var ledgerFailure: String? { counters.withLock { $0.ledgerFailure } }

    /// Calls the ledger until it answers, retrying failures that may pass with back-off, for at
    /// most the policy's bound or until `deadline`. Returns the answer and when the successful
    /// try was sent (a lease runs from then at the earliest).
    ///
    /// The retries run in a task of their own so that cancelling the batch (a second Ctrl-C)
    /// does not cut short the recording of the attempts it cancelled. Once the ledger counts as
    /// unreachable, later calls are tried once each.
    func ledgerCall<T: Sendable>(_ operation: String, until deadline: ContinuousClock.Instant? = nil,
                                 _ call: @escaping @Sendable () async throws -> T) async throws
        -> (T, ContinuousClock.Instant) {
        let policy = ledgerRetry
        let givenUp = ledgerFailure != nil
        let result = await Task { () -> Result<(T, ContinuousClock.Instant), any Error> in
            let firstFailure = ContinuousClock.now
            var failures = 0
            while true {
                let sentAt = ContinuousClock.now
                do {
                    return .success((try await call(), sentAt))
                } catch let error as BatchLedgerError {
                    return .failure(error)
                } catch {
                    failures += 1
                    let wait = policy.delay(afterFailure: failures)
                    let next = ContinuousClock.now + wait
                    let bound = firstFailure + policy.giveUpAfter
                    if givenUp || next > bound || deadline.map({ next > $0 }) == true {
                        return .failure(LedgerUnreachable(operation: operation, tries: failures, lastError: "\(error)",
                                                          policyExhausted: givenUp || next > bound))
                    }
                    try? await Task.sleep(until: next, clock: .continuous)
                }
            }
        }.value
        switch result {
        case let .success(value): return value
        case let .failure(error):
            if let unreachable = error as? LedgerUnreachable, unreachable.policyExhausted {
                await ledgerUnreachable(unreachable)
            }
            throw error
        }
    }

    /// The ledger is gone: no device is started from now on, and `batch run` will say so.
    private func ledgerUnreachable(_ error: LedgerUnreachable) async {
        let first = counters.withLock { counters -> Bool in
            guard counters.ledgerFailure == nil else { return false }
            counters.ledgerFailure = error.description
            return true
        }
        guard first else { return }
        await stopQueue(reason: "the ledger is unreachable (\(error)); no new devices will be started, "
                        + "the running ones finish or are abandoned when their lease runs out")
    }

    /// Renews the claim every third of the lease; the claim is lost when the ledger says so or when
    /// no renewal gets through before the lease runs out. Cancelled when the runner is done with the device.
    func keepClaimAlive(_ device: DeviceAddress, _ keeper: ClaimKeeper) async {
        let key = device.description
        let interval = plan.line.lease / 3
        while true {
            do { try await Task.sleep(for: interval) } catch { return }
            do {
                let (_, sentAt) = try await ledgerCall("renew the claim on \(device)", until: keeper.gate.deadline) {
                    try await self.ledger.heartbeat(device: key)
                }
                if Task.isCancelled { return }
                keeper.gate.renewed(sentAt: sentAt)
            } catch let error as BatchLedgerError where error.kind == .claimLost {
                if !Task.isCancelled { keeper.lose("the ledger says: \(error.message)") }
                return
            } catch {
                if !Task.isCancelled { keeper.lose("the claim could not be renewed before its lease ran out: \(error)") }
                return
            }
        }
    }

    /// Loses the claim when the gate's deadline passes without a renewal, even when a heartbeat
    /// hangs: the attempt is then cancelled (the gate already refuses its writes).
    static func loseWhenLeaseRunsOut(_ keeper: ClaimKeeper) async {
        while true {
            let deadline = keeper.gate.deadline
            do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
            if keeper.gate.deadline <= deadline {
                keeper.lose("no heartbeat was confirmed within the lease of \(keeper.gate.lease)")
                return
            }
        }
    }
}
