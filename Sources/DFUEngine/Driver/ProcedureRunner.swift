import DFUBytes
import DFUGATT
import DFUProfile

/// Runs a profile's procedure once, for one image, over the session's current link: it
/// performs what `ProcedureMachine` asks for, driving a `CommandExchange` for each command or
/// awaited notification and a `StreamTransfer` for each stream. Throws `LinkLost` when the link
/// drops (the session may resume) and wraps every other failure as a `FlashError`.
final class ProcedureRunner {
    let session: FlashSession
    let image: FlashImage
    private let index: Int
    private let count: Int
    var profile: Profile { session.profile }
    /// Link time when the action being performed began.
    var actionStartedAt: Duration = .zero

    init(session: FlashSession, image: FlashImage, index: Int, count: Int) {
        self.session = session
        self.image = image
        self.index = index
        self.count = count
    }

    func run() async throws(LinkLost) -> Bool {
        var machine = ProcedureMachine(procedure: profile.procedure, scope: try baseScope())
        var action = machine.start()
        var reported = -1
        while true {
            if Task.isCancelled {
                throw LinkLost(fatal: FlashError(
                    kind: .cancelled, message: "cancelled before the update finished; the device keeps what it received",
                    address: session.address?.description, image: image.name, offset: machine.completedOffset,
                    hint: "run the same command again: the profile resumes where the device stopped"))
            }
            let outcome: ProcedureMachine.Outcome
            actionStartedAt = session.link?.now ?? actionStartedAt
            switch action {
            case .finished:
                session.retries += machine.retryCount
                session.finalScope = machine.scope
                return machine.verified
            case let .failed(failure):
                session.retries += machine.retryCount
                throw LinkLost(fatal: flashError(failure))
            case let .send(step, location):
                outcome = try await send(step, location: location, scope: machine.scope)
            case let .await(step, location):
                outcome = try await awaitNotification(step, location: location, scope: machine.scope)
            case let .stream(step, location):
                outcome = try await stream(step, location: location, scope: machine.scope)
            case let .windowed(loop, location):
                outcome = try await windowed(loop, location: location, scope: machine.scope)
            case let .reconnect(step):
                try await session.reconnect(step)
                machine.rebind(try linkRecords())
                outcome = .reconnected
            case let .wait(duration):
                let link = try currentLink()
                do { try await link.sleep(until: link.now + duration) } catch {
                    throw LinkLost(error, step: "wait", location: nil)
                }
                outcome = .waited
            }
            action = machine.resume(outcome)
            if let done = machine.completedOffset, done != reported {
                reported = done
                reportProgress(done)
            }
        }
    }

    // MARK: - Scope

    func baseScope() throws(LinkLost) -> Scope {
        var scope = Scope(["image": image.record(index: index, count: count),
                           "param": session.options.parameterRecord(for: profile)])
        for (name, value) in try linkRecords() { scope[name] = value }
        return scope
    }

    /// `link` and `present`, which change when a `reconnect` step lands on another device.
    func linkRecords() throws(LinkLost) -> [String: Value] {
        guard let link = session.link, let bindings = session.bindings else { throw LinkLost(detail: "not connected") }
        return ["link": .record(["mtu": .integer(UInt64(link.mtu))]), "present": bindings.presentRecord(profile)]
    }

    func currentLink() throws(LinkLost) -> any GATTLink {
        guard let link = session.link else { throw LinkLost(detail: "not connected") }
        return link
    }

    func characteristic(_ name: String, location: SourceLocation) throws(LinkLost) -> GATTCharacteristic {
        guard let bindings = session.bindings else { throw LinkLost(detail: "not connected") }
        do {
            return try bindings.require(name)
        } catch {
            var error = error
            error.image = image.name
            error.location = error.location ?? location
            throw LinkLost(fatal: error)
        }
    }

    // MARK: - Helpers

    /// Records and announces how much of the image the device holds. The transfer phase runs
    /// from the start of the first step that moved image data to the last progress.
    func reportProgress(_ done: Int) {
        session.imageProgress = done
        if session.transferStartedAt == nil { session.transferStartedAt = actionStartedAt }
        session.transferEndedAt = session.link?.now
        session.onEvent(.progress(image: image.name, done: done, total: image.data.count, elapsed: session.elapsed))
    }

    /// The next notification before `deadline`, or the deadline passing, as a machine event.
    func nextEvent(_ link: any GATTLink, until deadline: Duration) async throws(GATTError) -> LinkEvent {
        if let notification = try await link.nextNotification(until: deadline) {
            return .notification(characteristic: roleName(notification.valueHandle), value: notification.value, now: link.now)
        }
        return .deadlinePassed(now: link.now)
    }

    func roleName(_ handle: UInt16) -> String {
        session.bindings?.name(forHandle: handle) ?? ""
    }

    func writeType(_ role: String, default type: CharacteristicSpec.WriteType) -> GATTWriteType {
        session.options.writeTypes[role] ?? GATTWriteType(type)
    }

    func framing(of role: String) -> LengthHeaderFormat? {
        profile.characteristic(named: role)?.framing.flatMap { profile.framings[$0]?.format }
    }

    func frame(_ message: [UInt8], for spec: CharacteristicSpec) throws -> [UInt8] {
        guard let format = framing(of: spec.name) else { return message }
        return format.isLengthOnly ? try format.frame(payload: message) : try format.seal(frame: message)
    }

    func segmentSize(_ spec: CharacteristicSpec, mtu: Int) -> Int {
        let attPayload = Segmenter.attPayloadSize(mtu: mtu)
        switch spec.segmentSize {
        case .mtu: return attPayload
        case let .fixed(size): return max(1, min(size, attPayload))
        }
    }

    func flashError(_ failure: ProcedureFailure) -> FlashError {
        let addressText = session.address?.description
        switch failure.failure {
        case let .deviceStatus(status):
            return FlashError(kind: .device, message: "\(failure.step) failed: the device answered \(status)",
                              address: addressText, image: image.name, offset: failure.chunkOffset, location: failure.location)
        case let .timeout(after, attempts, ignored):
            var message = "\(failure.step): no matching answer within \(after) (\(attempts) attempt(s))"
            if !ignored.isEmpty { message += "; ignored: " + ignored.joined(separator: "; ") }
            return FlashError(kind: .timeout, message: message, address: addressText, image: image.name,
                              offset: failure.chunkOffset, location: failure.location,
                              hint: "the device may be busy erasing flash (raise the step's timeout) or no longer in DFU mode")
        case let .expectationFailed(expression, location, values):
            return FlashError(kind: .device, message: "\(failure.step): expected \(expression) (\(values))",
                              address: addressText, image: image.name, offset: failure.chunkOffset, location: location)
        case let .evaluation(error):
            return FlashError(kind: .profile, message: error.description, address: addressText, image: image.name,
                              location: error.location)
        }
    }
}
