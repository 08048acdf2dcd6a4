import DFUBytes
import DFUGATT
import DFUProfile

/// Runs a profile's procedure once, for one image, over the session's current link: it
/// performs what `ProcedureMachine` asks for, running each command, stream and windowed loop
/// through `LinkDriver`. It keeps its own statistics and what it learned of the device's
/// progress (`ImageProgress`); the session folds both in after the run, whether it finished,
/// lost the link (the session may resume), was cancelled or failed.
final class ProcedureRunner {
    /// What a finished run learned.
    struct Result {
        /// Whether the device confirmed the image's checksums.
        var verified: Bool
        /// The variables at the end (for `dfukit exec`).
        var scope: Scope
    }

    let session: FlashSession
    let image: FlashImage
    private let index: Int
    private let count: Int
    /// Read by the session after the run; written only by the runner (and its extensions).
    var statistics: RunStatistics
    var progress: ImageProgress
    var profile: Profile { session.profile }
    /// Link time when the action being performed began.
    private var actionStartedAt: Duration = .zero
    private var phaseEventsSeen = 0
    /// Whether this run announced that it started moving the image's data.
    private var transferAnnounced = false
    /// Where the image's data stood on the device at this run's last progress (nil before the
    /// first). Progress from every source (a chunk loop, the stream or windowed loop inside
    /// it) is one sequence, so bytes are counted once however the loops nest.
    private var progressMark: Int?
    private let pacer = WritePacer()

    init(session: FlashSession, image: FlashImage, index: Int, count: Int, sequence: Int, progress: ImageProgress) {
        self.session = session
        self.image = image
        self.index = index
        self.count = count
        self.statistics = RunStatistics(sequence: sequence)
        self.progress = progress
    }

    func run() async throws(RunInterruption) -> Result {
        do {
            return try await runSteps()
        } catch {
            // The device may have said why before it dropped the link (a watched notification).
            guard case let .linkLost(loss) = error, let refusal = await refusalLeftOnLostLink() else { throw error }
            throw refused(refusal, loss: loss)
        }
    }

    private func runSteps() async throws(RunInterruption) -> Result {
        var machine = ProcedureMachine(procedure: profile.procedure, scope: try baseScope(),
                                       completedPhases: progress.completedPhases, onceAnswers: progress.onceAnswers)
        machine.progressLimit = image.data.count
        var action = machine.start()
        var reported = -1
        defer {
            statistics.retries += machine.retryCount
            progress.onceAnswers = machine.onceAnswers
            progress.verified = progress.verified || machine.verified
            if let evidence = machine.evidence { progress.evidence = evidence }
        }
        while true {
            notePhases(of: machine)
            if Task.isCancelled { throw .cancelled }
            if let expired = session.attemptExpired(while: "running the procedure", image: image.name,
                                                       bytesHeld: statistics.bytesHeld) {
                throw .failed(expired)
            }
            let outcome: ProcedureMachine.Outcome
            actionStartedAt = session.link?.now ?? actionStartedAt
            switch action {
            case .finished:
                return Result(verified: machine.verified || progress.verified, scope: machine.scope)
            case let .failed(failure):
                throw .failed(flashError(failure))
            case let .send(step, location):
                outcome = try await send(step, location: location, scope: machine.scope)
            case let .await(step, location):
                outcome = try await awaitNotification(step, location: location, scope: machine.scope)
            case let .read(step, location):
                outcome = try await read(step, location: location)
            case let .stream(step, location):
                outcome = try await stream(step, location: location, scope: machine.scope)
            case let .windowed(loop, location):
                outcome = try await windowed(loop, location: location, scope: machine.scope)
            case let .reconnect(step):
                let reboot = progress.pendingReboot
                if let refusal = try await session.device.reconnect(step, after: reboot, watching: notificationWatch()) {
                    throw refused(refusal, loss: LinkLoss(detail: "the device dropped the link after '\(reboot?.command ?? "")'",
                                                          step: "reconnect"))
                }
                progress.pendingReboot = nil
                machine.rebind(try linkRecords())
                outcome = .reconnected
            case let .wait(duration):
                let link = try currentLink()
                do { try await link.sleep(until: session.boundedByAttempt(deadline: link.now + duration)) } catch {
                    throw interruption(error, step: "wait", location: nil)
                }
                outcome = .waited
            }
            action = machine.resume(outcome)
            if let done = machine.completedOffset, done != reported {
                reported = done
                reportProgress(done, resumedAt: machine.resumedAt)
            }
        }
    }

    /// Reports the phase events the machine added since the last look, and keeps track of the
    /// phase under way and the stage reached.
    private func notePhases(of machine: ProcedureMachine) {
        let events = machine.phaseEvents
        while phaseEventsSeen < events.count {
            let event = events[phaseEventsSeen]
            phaseEventsSeen += 1
            switch event {
            case let .entered(phase):
                // Entering a phase means the ones before it are done: before the first, nothing is.
                progress.stage = progress.stage ?? .unchanged
                progress.floor = progress.floor ?? .unchanged
                progress.currentPhase = phase
                progress.currentPhaseWrote = false
                progress.currentPhaseAnswered = false
                session.onEvent(.phase(name: phase.name, .entered))
            case let .unproven(phase, holds):
                if progress.completedPhases.insert(phase.name).inserted { progress.phaseOrder.append(phase.name) }
                progress.stage = holds.first ?? progress.stage
                progress.openHolds = holds
                progress.floor = min(progress.floor ?? .unchanged, holds.first ?? .unchanged)
                progress.currentPhase = nil
                session.onEvent(.phase(name: phase.name, .completed))
            case let .completed(phase), let .alreadyDone(phase):
                if progress.completedPhases.insert(phase.name).inserted { progress.phaseOrder.append(phase.name) }
                if phase.achieves != nil { progress.openHolds = nil }
                progress.stage = phase.achieves ?? progress.stage
                if !phase.lostOnDisconnect { progress.floor = phase.achieves ?? progress.floor }
                progress.floor = progress.floor ?? .unchanged
                progress.currentPhase = nil
                if case .alreadyDone = event {
                    if !progress.phasesFoundDone.contains(phase.name) { progress.phasesFoundDone.append(phase.name) }
                    session.onEvent(.phase(name: phase.name, .alreadyDone))
                } else {
                    session.onEvent(.phase(name: phase.name, .completed))
                }
            }
        }
    }

    // MARK: - Scope

    func baseScope() throws(RunInterruption) -> Scope {
        var scope = Scope(["image": image.record(index: index, count: count),
                           "param": session.options.parameterRecord(for: profile)])
        for (name, value) in try linkRecords() { scope[name] = value }
        return scope
    }

    /// `link` and `present`, which change when a `reconnect` step lands on another device.
    func linkRecords() throws(RunInterruption) -> [String: Value] {
        guard let link = session.link, let bindings = session.bindings else { throw notConnected }
        return ["link": .record(["mtu": .integer(UInt64(link.mtu)), "reboot": .string(session.device.lastReboot.rawValue),
                                  "kind": .string(link.medium.rawValue),
                                  "buffer": .integer(UInt64(link.deviceBuffer ?? 0))]),
                "present": bindings.presentRecord]
    }

    func currentLink() throws(RunInterruption) -> any GATTLink {
        guard let link = session.link else { throw notConnected }
        return link
    }

    private var notConnected: RunInterruption { .linkLost(LinkLoss(detail: "not connected")) }

    /// The characteristic bound to `role` on this connection, or why it is not there.
    func bound(_ role: String, location: SourceLocation) throws(RunInterruption) -> ConnectionBindings.Bound {
        guard let bindings = session.bindings else { throw notConnected }
        do {
            return try bindings.require(role)
        } catch {
            var error = error
            error.image = image.name
            error.location = error.location ?? location
            throw .failed(error)
        }
    }

    // MARK: - Watched notifications

    /// The profile's watched notifications (`watch: true`) on this connection; nil when none
    /// is watched or bound.
    func notificationWatch() -> NotificationWatch? {
        guard let bindings = session.bindings else { return nil }
        var candidates: [NotificationWait.Candidate] = []
        for (name, message) in profile.notifications.sorted(by: { $0.key < $1.key }) where message.watched {
            guard let source = try? bindings.require(message.characteristic) else { continue }
            candidates.append(NotificationWait.Candidate(name: name, message: message,
                                                         handle: source.target.characteristic.valueHandle,
                                                         framing: source.framing))
        }
        let scope = (try? baseScope()) ?? Scope([:])
        return NotificationWatch(candidates: candidates, scope: scope, codeTables: profile.codeTables)
    }

    /// The first refusal among the notifications the device sent before the link dropped and
    /// nothing read (writes without response await nothing).
    private func refusalLeftOnLostLink() async -> DeviceStatus? {
        guard let link = session.link, var watch = notificationWatch() else { return nil }
        var refusal: DeviceStatus?
        // A link that is down gives what arrived before, then fails.
        while let notification = try? await link.nextNotification(until: link.now) {
            if refusal == nil, case let .refusal(status) = watch.hear(notification.value, from: notification.valueHandle) {
                refusal = status
            }
        }
        return refusal
    }

    /// A watched refusal that came with a lost link: final when its code cannot succeed on
    /// retry, else a lost link as before (the session resumes), naming what the device said.
    private func refused(_ status: DeviceStatus, loss: LinkLoss) -> RunInterruption {
        let said = "the device sent '\(status.notification ?? "a notification")' (\(status)), then dropped the link"
        guard status.retryable else {
            var error = FlashError(kind: .device, message: (loss.step.map { "\($0): " } ?? "") + said
                                    + "; " + Self.notRetried(status),
                                   address: session.address?.description, image: image.name,
                                   offset: statistics.bytesHeld > 0 ? statistics.bytesHeld : nil, location: loss.location)
            error.hint = "the device refuses this image as it is: change what its refusal names, then flash again"
            return .failed(error)
        }
        var loss = loss
        loss.detail = said + " (" + loss.detail + ")"
        return .linkLost(loss)
    }

    /// Why a refusal was not retried, for its error.
    static func notRetried(_ status: DeviceStatus) -> String {
        "not retried: the device refused for good, a retry gets the same answer (the profile marks "
            + (status.name.map { "'\($0)'" } ?? "this code") + " retryable: false)"
    }

    // MARK: - Driving machines

    /// Runs a link-level machine through `LinkDriver`, counting resends, reporting progress
    /// when `reportsProgress`, noting that the current phase wrote to the device, and marking
    /// a reboot as pending once a write of a rebooting command went out.
    ///
    /// `attErrorsAsStatus`: an ATT error on the write is the device's answer (an `optional` send
    /// looks where the device is afterwards), not an error that ends the run.
    func drive<Machine: LinkMachine>(_ machine: inout Machine, step: String, location: SourceLocation?,
                                     reboot: PendingReboot? = nil, reportsProgress: Bool = false,
                                     attErrorsAsStatus: Bool = false)
        async throws(RunInterruption) -> Swift.Result<Machine.Output, ExchangeFailure> {
        let link = try currentLink()
        let transport = session.transport
        // The transfer is announced at the first progress, when the device's first answer has
        // said whether it already held part of the data (`resumedAt`).
        let startOffset = machine.transferred ?? statistics.bytesHeld
        let startedAt = link.now
        // A transfer that starts again below the last progress (an object created again) sends
        // those bytes again.
        if reportsProgress, let mark = progressMark { progressMark = min(mark, startOffset) }
        let observer = LinkDriver.Observer(
            willWrite: { [self] in
                progress.currentPhaseWrote = true
                if var reboot, progress.pendingReboot == nil {
                    reboot.sentAt = transport.now
                    progress.pendingReboot = reboot
                }
            },
            resent: { [self] text in
                statistics.retries += 1
                session.onEvent(.retrying(text))
            },
            progressed: { [self] done, resumedAt in
                guard reportsProgress else { return }
                // Not past the image: data sent after it (a checksum byte) is not the image's.
                let done = min(done, image.data.count)
                let heldAtStart = min(done, max(startOffset, resumedAt ?? 0))
                announceTransfer(offset: heldAtStart, since: link.now - startedAt)
                countSent(upTo: done, heldAtStart: heldAtStart)
                reportProgress(done)
            })
        do {
            var driver = LinkDriver(link: link, observer: observer, pacer: pacer, attemptDeadline: session.attemptDeadline)
            driver.watch = notificationWatch()
            let result = try await driver.run(&machine)
            if case .success = result {
                progress.currentPhaseAnswered = true
                session.deviceAnswered = true
            }
            return result
        } catch {
            switch error {
            case .cancelled: throw .cancelled
            case let .transport(gattError):
                if attErrorsAsStatus, case let .attError(code, handle) = gattError.kind, !Task.isCancelled {
                    return .failure(.deviceStatus(attStatus(code: code, handle: handle)))
                }
                if let expired = session.attemptExpired(while: "running \(step)", image: image.name,
                                                        bytesHeld: statistics.bytesHeld) { throw .failed(expired) }
                throw interruption(gattError, step: step, location: location)
            case .attemptDeadlinePassed:
                throw .failed(session.attemptExpired(while: "running \(step)", image: image.name,
                                                        bytesHeld: statistics.bytesHeld)
                              ?? FlashError(kind: .timeout, message: "\(step): the attempt reached its time bound"))
            }
        }
    }

    /// A transport error as what it means for the run: a lost link resumes, unless the phase
    /// under way wrote to the device and cannot be resumed; anything else is final.
    func interruption(_ error: GATTError, step: String?, location: SourceLocation?) -> RunInterruption {
        // A wait that cancellation cut short fails as it can (a timeout, a closed link): it is the cancellation.
        if Task.isCancelled { return .cancelled }
        var error = error
        if case let .attError(code, handle) = error.kind, let named = namedATTError(code: code, handle: handle) {
            error.detail = named
        }
        let interruption = RunInterruption(error, step: step, location: location)
        guard case let .linkLost(loss) = interruption, let phase = progress.currentPhase, !phase.resumable,
              progress.currentPhaseWrote else { return interruption }
        return .failed(FlashError(
            kind: loss.kind,
            message: "\(loss.summary); phase '\(phase.name)' cannot be resumed: whether the device acted on what was "
                + "sent cannot be asked",
            address: session.address?.description, image: image.name, location: loss.location,
            hint: "check what the device runs (its version or image list) before flashing again"))
    }

    /// An ATT error code as a device status, named by the written characteristic's `att-errors`.
    private func attStatus(code: UInt8, handle: UInt16) -> DeviceStatus {
        let spec = session.bindings.flatMap { bindings in
            session.profile.characteristics.first { bindings.characteristic($0.name)?.valueHandle == handle }
        }
        let entry = spec?.attErrors.flatMap { session.profile.codeTables[$0]?.entries[UInt64(code)] }
        var status = DeviceStatus(code: UInt64(code), name: entry?.name, message: entry?.message)
        status.retryable = entry?.retryable ?? true
        return status
    }

    /// "crc-error: CRC check failed (a write to 'control')" for an ATT error code the written
    /// characteristic's `att-errors` table names; nil when it names none.
    private func namedATTError(code: UInt8, handle: UInt16) -> String? {
        guard let bindings = session.bindings,
              let spec = session.profile.characteristics.first(where: { bindings.characteristic($0.name)?.valueHandle == handle }),
              let entry = spec.attErrors.flatMap({ session.profile.codeTables[$0]?.entries[UInt64(code)] }) else { return nil }
        return entry.name + (entry.message.map { ": " + $0 } ?? "") + " (the device refused a write to '\(spec.name)')"
            + (entry.retryable ? "" : "; a retry gets the same answer (retryable: false)")
    }

    // MARK: - Progress

    /// Records and announces how much of the image the device holds. The transfer phase runs
    /// from the start of the first step that moved image data to the last progress.
    ///
    /// `resumedAt`: where the device said it already was at its first answer (MCUmgr answers
    /// the first chunk of an upload it kept with its own offset): those bytes were there when
    /// the transfer began, not sent by this run.
    func reportProgress(_ done: Int, resumedAt: Int? = nil) {
        // Progress the procedure computed itself (not a stream's): its transfer began with the action.
        let heldAtStart = min(done, max(statistics.bytesHeld, session.imageBytesHeld, resumedAt ?? 0))
        announceTransfer(offset: heldAtStart, since: session.link.map { $0.now - actionStartedAt } ?? .zero)
        countSent(upTo: done, heldAtStart: heldAtStart)
        statistics.bytesHeld = done
        if statistics.transferStartedAt == nil { statistics.transferStartedAt = actionStartedAt }
        statistics.transferEndedAt = session.link?.now
        session.onEvent(.progress(image: image.name, done: done, total: image.data.count, elapsed: session.elapsed))
    }

    /// Counts the bytes progress to `done` moved: past the last progress, or past `heldAtStart`
    /// (what the device held when this run's transfer began) at the first.
    private func countSent(upTo done: Int, heldAtStart: Int) {
        statistics.bytesSent += max(0, done - (progressMark ?? heldAtStart))
        progressMark = done
    }

    /// Says, once per run, that the image's data starts moving, with what the device holds
    /// then; `since` is how long ago it started.
    private func announceTransfer(offset: Int, since: Duration = .zero) {
        guard !transferAnnounced else { return }
        transferAnnounced = true
        statistics.heldAtTransferStart = offset
        session.onEvent(.transferStarted(image: image.name, offset: offset, total: image.data.count,
                                         elapsed: max(.zero, session.elapsed - since)))
    }

    // MARK: - Errors

    func flashError(_ failure: ProcedureFailure) -> FlashError {
        let addressText = session.address?.description
        switch failure.failure {
        case let .deviceStatus(status):
            var message = "\(failure.step) failed: the device " + (status.notification.map { "sent '\($0)': " } ?? "answered ")
                + status.description
            if !status.retryable { message += "; " + Self.notRetried(status) }
            var error = FlashError(kind: .device, message: message,
                                   address: addressText, image: image.name, offset: failure.chunkOffset,
                                   location: failure.location)
            // A code the profile does not know (or a garbled answer) does not say the device refused.
            error.outcomeUnknown = status.name == nil
            return error
        case let .timeout(after, attempts, ignored):
            var message = "\(failure.step): no matching answer within \(after) (\(attempts) attempt(s))"
            if !ignored.isEmpty { message += "; ignored: " + ignored.joined(separator: "; ") }
            return FlashError(kind: .timeout, message: message, address: addressText, image: image.name,
                              offset: failure.chunkOffset, location: failure.location,
                              hint: "the device may be busy erasing flash (raise the step's timeout) or no longer in DFU mode")
        case let .expectationFailed(expression, location, values):
            // An observation has no expression to quote: its sentence says what the device showed.
            let said = expression.isEmpty ? values : "expected \(expression) (\(values))"
            var error = FlashError(kind: .device, message: "\(failure.step): \(said)",
                                   address: addressText, image: image.name, offset: failure.chunkOffset, location: location)
            error.deviceHolds = failure.deviceHolds
            return error
        case let .evaluation(error):
            return FlashError(kind: .profile, message: error.description, address: addressText, image: image.name,
                              location: error.location)
        case let .phaseUndone(phase, done, values):
            return FlashError(kind: .device,
                              message: "phase '\(phase)' was completed earlier in this update, but the device no longer "
                                + "shows it done (\(done): \(values.isEmpty ? "false" : values)); it is not repeated",
                              address: addressText, image: image.name, location: failure.location,
                              hint: "the device may have lost or rejected what it received (a bootloader that "
                                + "reverted the image?); check it, then run the update again")
        }
    }
}
