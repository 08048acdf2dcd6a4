import DFUBytes
import DFUGATT
import DFUProfile

/// The thin async layer under the pure machines: it finds and connects to the device, binds
/// the profile's characteristics, and performs what `ProcedureMachine`, `CommandExchange`
/// and `StreamTransfer` ask for, over any `GATTTransport`. After a disconnect it reconnects
/// and runs the image's procedure again (which asks the device where it stopped), as the
/// profile's `resume` policy allows.
public final class FlashSession {
    private let profile: Profile
    private let images: [FlashImage]
    private let transport: any GATTTransport
    private let requestedAddress: DeviceAddress?
    private let onEvent: (FlashEvent) -> Void

    private var link: (any GATTLink)?
    private var bindings: CharacteristicBindings?
    private var address: DeviceAddress?
    private var startedAt: Duration = .zero
    private var retries = 0
    private var resumes = 0
    private var delivered = 0
    /// Bytes of the current image the device holds, as far as progress tells.
    private var imageProgress = 0

    public init(profile: Profile, images: [FlashImage], transport: any GATTTransport, address: DeviceAddress?,
                onEvent: @escaping (FlashEvent) -> Void = { _ in }) {
        self.profile = profile
        self.images = images
        self.transport = transport
        self.requestedAddress = address
        self.onEvent = onEvent
    }

    public func run() async -> FlashReport {
        startedAt = transport.now
        var status = FlashReport.Status.verified
        var failure: FlashError?
        do {
            let target = try await resolveAddress()
            address = target
            try await connect(to: target, timeout: profile.resume.reconnectTimeout)
            for (index, image) in images.enumerated() {
                onEvent(.imageStarted(name: image.name, size: image.data.count, index: index, count: images.count))
                let verified = try await flashWithResume(image)
                delivered += image.data.count
                imageProgress = 0
                onEvent(.imageFinished(name: image.name, verified: verified))
                if !verified { status = .completed }
            }
        } catch {
            status = .failed
            failure = error
        }
        if let link { await link.disconnect() }
        return FlashReport(status: status, profile: profile.name, device: transport.name, address: address?.description,
                           bytes: delivered + (status == .failed ? imageProgress : 0), seconds: Double((transport.now - startedAt) / .seconds(1)),
                           retries: retries, resumes: resumes, error: failure)
    }

    // MARK: - Connection

    private func resolveAddress() async throws(FlashError) -> DeviceAddress {
        if let requestedAddress { return requestedAddress }
        onEvent(.scanning(transport: transport.name))
        let seen: [Advertisement]
        do {
            seen = try await transport.scan(timeout: .seconds(5))
        } catch {
            throw FlashError(kind: .transport, message: "scanning failed: \(error)")
        }
        guard let match = seen.first(where: { ProfileMatcher.matches($0, profile.match) }) else {
            let list = seen.map { "\($0.address) \($0.name ?? "(no name)")" }.joined(separator: ", ")
            throw FlashError(kind: .transport,
                             message: "no advertising device matches profile '\(profile.name)' (seen: \(list.isEmpty ? "none" : list))",
                             hint: "is the device powered and advertising? Name it with --device TRANSPORT/ADDRESS")
        }
        return match.address
    }

    private func connect(to target: DeviceAddress, timeout: Duration) async throws(FlashError) {
        onEvent(.connecting(target))
        do {
            let newLink = try await transport.connect(to: target, timeout: timeout)
            let services = try await newLink.discoverServices()
            let newBindings = try CharacteristicBindings(profile: profile, services: services,
                                                         address: target.description)
            for spec in profile.characteristics where spec.subscribe {
                guard let characteristic = newBindings.characteristic(spec.name) else { continue }
                try await newLink.setNotifications(enabled: true, for: characteristic)
            }
            link = newLink
            bindings = newBindings
            address = target
            onEvent(.connected(target, mtu: newLink.mtu))
        } catch let error as FlashError {
            throw error
        } catch let error as GATTError {
            let kind: FlashError.Kind
            switch error.kind {
            case .connectionFailed, .transportUnavailable: kind = .transport
            case .timeout: kind = .timeout
            case .disconnected: kind = .disconnected
            case .attError, .unsupported: kind = .device
            }
            throw FlashError(kind: kind, message: "connecting failed: \(error.detail)", address: target.description)
        } catch {
            throw FlashError(kind: .transport, message: "connecting failed: \(error)", address: target.description)
        }
    }

    // MARK: - One image

    private func flashWithResume(_ image: FlashImage) async throws(FlashError) -> Bool {
        imageProgress = 0
        var firstLoss: LinkLost?
        while true {
            do {
                return try await runProcedure(for: image)
            } catch let lost {
                if let fatal = lost.fatal { throw fatal }
                let first = firstLoss ?? lost
                firstLoss = first
                try await reconnectToResume(image, first: first, latest: lost)
            }
        }
    }

    /// Reconnects after a lost link; a failed reconnection costs a resume attempt too.
    private func reconnectToResume(_ image: FlashImage, first: LinkLost, latest: LinkLost) async throws(FlashError) {
        var latest = latest
        while true {
            guard resumes < profile.resume.attempts, let address else {
                var message = first.summary
                if profile.resume.attempts == 0 {
                    message += "; the profile does not resume"
                } else {
                    message += "; gave up after \(resumes) resume(s)"
                    if latest.summary != first.summary { message += " (last: \(latest.summary))" }
                }
                throw FlashError(kind: first.kind, message: message, address: address?.description,
                                 image: image.name, offset: imageProgress, location: first.location,
                                 hint: "move the device closer or check its power, then run the same command again")
            }
            resumes += 1
            onEvent(.resuming(attempt: resumes, of: profile.resume.attempts, reason: latest.summary))
            do {
                try await connect(to: address, timeout: profile.resume.reconnectTimeout)
                return
            } catch {
                guard [.disconnected, .timeout, .transport].contains(error.kind) else { throw error }
                latest = LinkLost(detail: error.message)
                latest.kind = error.kind
            }
        }
    }

    /// Runs the procedure once; throws `LinkLost` when the link drops (to be resumed) and
    /// turns every other failure into a `FlashError`.
    private func runProcedure(for image: FlashImage) async throws(LinkLost) -> Bool {
        guard let link else { throw LinkLost(detail: "not connected") }
        let scope = Scope(["image": image.record, "link": .record(["mtu": .integer(UInt64(link.mtu))])])
        var machine = ProcedureMachine(procedure: profile.procedure, scope: scope)
        var action = machine.start()
        var reported = -1
        while true {
            if Task.isCancelled {
                throw LinkLost(fatal: FlashError(
                    kind: .cancelled, message: "cancelled before the update finished; the device keeps what it received",
                    address: address?.description, image: image.name, offset: machine.completedOffset,
                    hint: "run the same command again: the profile resumes where the device stopped"))
            }
            let outcome: ProcedureMachine.Outcome
            switch action {
            case .finished:
                retries += machine.retryCount
                return machine.verified
            case let .failed(failure):
                retries += machine.retryCount
                throw LinkLost(fatal: flashError(failure, image: image))
            case let .send(step, location):
                outcome = try await send(step, location: location, scope: machine.scope)
            case let .stream(step, location):
                outcome = try await stream(step, location: location, scope: machine.scope, image: image)
            case let .reconnect(step):
                try await reconnect(step)
                outcome = .reconnected
            case let .wait(duration):
                guard let current = self.link else { throw LinkLost(detail: "not connected") }
                do { try await current.sleep(until: current.now + duration) } catch {
                    throw LinkLost(error, step: "wait", location: nil)
                }
                outcome = .waited
            }
            action = machine.resume(outcome)
            if let done = machine.completedOffset, done != reported {
                reported = done
                imageProgress = done
                onEvent(.progress(image: image.name, done: done, total: image.data.count, elapsed: transport.now - startedAt))
            }
        }
    }

    private func send(_ step: SendStep, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
        guard let link, let bindings, let command = profile.commands[step.command],
              let spec = profile.characteristic(named: command.request.characteristic) else {
            throw LinkLost(fatal: FlashError(kind: .profile, message: "command '\(step.command)' is not usable", location: location))
        }
        let setup: CommandExchange.Setup
        do {
            let (bytes, requestFields) = try MessageEncoder.encode(command.request, in: scope)
            let frame = try frame(bytes, for: spec)
            var exchangeScope = scope
            exchangeScope["request"] = .record(requestFields)
            let responseFraming = command.response
                .flatMap { profile.characteristic(named: $0.message.characteristic)?.framing }
                .flatMap { profile.framings[$0]?.format }
            setup = CommandExchange.Setup(
                command: command, writes: Segmenter.segments(of: frame, maximumSize: segmentSize(spec, mtu: link.mtu)),
                writeCharacteristic: spec.name, writeType: GATTWriteType(spec.writeType),
                responseFraming: responseFraming,
                timeout: step.timeout ?? command.timeout ?? profile.defaults.timeout,
                attempts: 1 + (step.retries ?? profile.defaults.retries), scope: exchangeScope,
                codeTables: profile.codeTables)
        } catch let error as EvaluationError {
            return .failed(.evaluation(error))
        } catch {
            throw LinkLost(fatal: FlashError(kind: .profile, message: "cannot frame '\(step.command)': \(error)", location: location))
        }
        var exchange = CommandExchange(setup)
        var action = exchange.handle(.begin(now: link.now))
        var attemptsSeen = 1
        do {
            while true {
                switch action {
                case let .write(bytes, name, type):
                    guard let characteristic = bindings.characteristic(name) else { return .failed(.timeout(after: .zero, attempts: 0, ignored: [])) }
                    try await link.write(bytes, to: characteristic, type: type)
                    action = exchange.handle(.writeAccepted(now: link.now))
                case let .awaitNotification(deadline):
                    if let notification = try await link.nextNotification(until: deadline) {
                        action = exchange.handle(.notification(characteristic: bindings.name(forHandle: notification.valueHandle),
                                                               value: notification.value, now: link.now))
                    } else {
                        action = exchange.handle(.deadlinePassed(now: link.now))
                        if case .write = action {
                            attemptsSeen += 1
                            retries += 1
                            onEvent(.retrying("no answer to '\(step.command)' within \(setup.timeout); sending it again (attempt \(attemptsSeen))"))
                        }
                    }
                case let .completed(fields):
                    return .sent(fields: fields)
                case let .failed(box):
                    return .failed(box.failure)
                }
            }
        } catch {
            throw LinkLost(error, step: "send '\(step.command)'", location: location)
        }
    }

    private func stream(_ step: StreamStep, location: SourceLocation, scope: Scope,
                        image: FlashImage) async throws(LinkLost) -> ProcedureMachine.Outcome {
        guard let link, let bindings, let spec = profile.characteristic(named: step.to),
              let characteristic = bindings.characteristic(step.to) else {
            throw LinkLost(fatal: FlashError(kind: .profile, message: "stream target '\(step.to)' is not usable", location: location))
        }
        let setup: StreamTransfer.Setup
        do {
            let data = try ExpressionEvaluator.bytes(step.data, in: scope)
            let from = try step.from.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 0
            let every = try step.receipts.map { (receipts) throws(EvaluationError) in try ExpressionEvaluator.integer(receipts.every, in: scope) } ?? 0
            setup = StreamTransfer.Setup(
                data: data, from: Int(min(from, UInt64(data.count))), segmentSize: segmentSize(spec, mtu: link.mtu),
                characteristic: spec.name, writeType: GATTWriteType(step.writeType ?? spec.writeType),
                receiptEvery: Int(min(every, 65_535)),
                receipt: step.receipts.flatMap { profile.notifications[$0.notification] },
                receiptAlias: step.receipts?.alias ?? "receipt", expect: step.receipts?.expect ?? [],
                timeout: step.receipts?.timeout ?? profile.defaults.timeout, scope: scope)
        } catch {
            return .failed(.evaluation(error))
        }
        var transfer = StreamTransfer(setup)
        var action = transfer.handle(.begin(now: link.now))
        do {
            while true {
                switch action {
                case let .write(bytes, _, type):
                    try await link.write(bytes, to: characteristic, type: type)
                    action = transfer.handle(.writeAccepted(now: link.now))
                    if step.reportsProgress {
                        imageProgress = transfer.position
                        onEvent(.progress(image: image.name, done: transfer.position, total: image.data.count,
                                          elapsed: transport.now - startedAt))
                    }
                case let .awaitNotification(deadline):
                    if let notification = try await link.nextNotification(until: deadline) {
                        action = transfer.handle(.notification(characteristic: bindings.name(forHandle: notification.valueHandle),
                                                               value: notification.value, now: link.now))
                    } else {
                        action = transfer.handle(.deadlinePassed(now: link.now))
                    }
                case let .completed(receipt):
                    return .streamed(lastReceipt: receipt)
                case let .failed(box):
                    return .failed(box.failure)
                }
            }
        } catch {
            throw LinkLost(error, step: "stream to '\(step.to)'", location: location)
        }
    }

    private func reconnect(_ step: ReconnectStep) async throws(LinkLost) {
        guard let current = address else { throw LinkLost(detail: "not connected") }
        if let link { await link.disconnect() }
        let target = step.address == .next ? current.adding(1) : current
        do {
            try await connect(to: target, timeout: step.timeout ?? profile.resume.reconnectTimeout)
        } catch {
            throw LinkLost(fatal: error)
        }
    }

    // MARK: - Helpers

    private func frame(_ message: [UInt8], for spec: CharacteristicSpec) throws -> [UInt8] {
        guard let name = spec.framing, let format = profile.framings[name]?.format else { return message }
        return format.isLengthOnly ? try format.frame(payload: message) : try format.seal(frame: message)
    }

    private func segmentSize(_ spec: CharacteristicSpec, mtu: Int) -> Int {
        let attPayload = Segmenter.attPayloadSize(mtu: mtu)
        switch spec.segmentSize {
        case .mtu: return attPayload
        case let .fixed(size): return max(1, min(size, attPayload))
        }
    }

    private func flashError(_ failure: ProcedureFailure, image: FlashImage) -> FlashError {
        let addressText = address?.description
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

/// Internal: either a lost link (the link dropped, or an ATT request went unanswered, after
/// which the bearer is unusable: resuming may help) or a final error wrapped to pass through.
struct LinkLost: Error {
    var detail: String
    var kind: FlashError.Kind = .disconnected
    var step: String?
    var location: SourceLocation?
    var fatal: FlashError?

    init(detail: String) { self.detail = detail }
    init(fatal: FlashError) {
        self.detail = fatal.message
        self.fatal = fatal
    }
    init(_ error: GATTError, step: String?, location: SourceLocation?) {
        self.detail = error.description
        if let address = error.address, detail.hasPrefix(address + ": ") {
            detail.removeFirst(address.count + 2)
        }
        self.step = step
        self.location = location
        switch error.kind {
        case .disconnected: kind = .disconnected
        case .timeout: kind = .timeout
        default:
            let kind: FlashError.Kind = error.kind == .transportUnavailable ? .transport : .device
            fatal = FlashError(kind: kind, message: step.map { "\($0): \(detail)" } ?? detail,
                               address: error.address, location: location)
        }
    }

    /// "send 'data': link lost: ..." for messages.
    var summary: String { step.map { "\($0): \(detail)" } ?? detail }
}

extension GATTWriteType {
    init(_ type: CharacteristicSpec.WriteType) {
        self = type == .withResponse ? .withResponse : .withoutResponse
    }
}
