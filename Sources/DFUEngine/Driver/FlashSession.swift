import DFUBytes
import DFUGATT
import DFUProfile

/// The thin async layer under the pure machines: it finds and connects to the device, binds
/// the profile's characteristics, runs the procedure for each image (a `ProcedureRunner` per
/// run) and, after a lost link, reconnects (waiting for a rebooting device to come back) and
/// runs the image's procedure again, as the profile's `resume` policy allows. The procedure
/// asks the device what it holds, so running it again continues where the device is.
public final class FlashSession {
    let profile: Profile
    let options: FlashOptions
    private let images: [FlashImage]
    let transport: any GATTTransport
    private let requestedAddress: DeviceAddress?
    let onEvent: (FlashEvent) -> Void

    /// The current connection (replaced on reconnect).
    private(set) var link: (any GATTLink)?
    private(set) var bindings: ConnectionBindings?
    private(set) var address: DeviceAddress?
    private var startedAt: Duration = .zero
    private var retries = 0
    /// The next request sequence number (`sequence` in profiles), kept across images and runs.
    private var sequence = 0
    private var resumes = 0
    private var delivered = 0
    /// Bytes of the current image the device holds, as far as progress tells.
    private var imageBytesHeld = 0
    /// What the session knows of the current image's progress on the device.
    private var imageProgress = ImageProgress()
    /// The transfer phase: from the first step that moved image data to the last progress.
    private var transferStartedAt: Duration?
    private var transferEndedAt: Duration?
    /// The variables at the end of the last procedure run (for `dfukit exec`).
    public private(set) var finalScope: Scope?

    public init(profile: Profile, images: [FlashImage], transport: any GATTTransport, address: DeviceAddress?,
                options: FlashOptions = FlashOptions(), onEvent: @escaping (FlashEvent) -> Void = { _ in }) {
        self.profile = profile
        self.options = options
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
            try options.validate(for: profile)
            let target = try await resolveAddress()
            address = target
            try await connect(to: target, timeout: profile.resume.reconnectTimeout)
            for (index, image) in images.enumerated() {
                onEvent(.imageStarted(name: image.name, size: image.data.count, index: index, count: images.count))
                let verified = try await flashWithResume(image, index: index)
                delivered += image.data.count
                imageBytesHeld = 0
                onEvent(.imageFinished(name: image.name, verified: verified))
                if !verified { status = .completed }
            }
        } catch {
            status = .failed
            failure = error
        }
        if let link { await link.disconnect() }
        var report = FlashReport(status: status, profile: profile.name, device: transport.name,
                                 address: address?.description,
                                 bytes: delivered + (status == .failed ? imageBytesHeld : 0),
                                 seconds: elapsedSeconds, retries: retries, resumes: resumes, error: failure,
                                 transferSeconds: transferSeconds)
        report.deviceHolds = failure?.deviceHolds ?? imageProgress.stage.map { [$0] } ?? []
        report.phasesDone = imageProgress.phaseOrder
        return report
    }

    var elapsed: Duration { transport.now - startedAt }

    /// The address given on the command line, if any (else the session scans).
    var requestedAddressForScan: DeviceAddress? { requestedAddress }

    /// A new connection replaces the current one.
    func adopt(link newLink: any GATTLink, bindings newBindings: ConnectionBindings, address target: DeviceAddress) {
        link = newLink
        bindings = newBindings
        address = target
    }
    private var elapsedSeconds: Double { Double(elapsed / .seconds(1)) }
    private var transferSeconds: Double? {
        guard let start = transferStartedAt, let end = transferEndedAt, end > start else { return nil }
        return Double((end - start) / .seconds(1))
    }

    // MARK: - One image

    private func flashWithResume(_ image: FlashImage, index: Int) async throws(FlashError) -> Bool {
        imageBytesHeld = 0
        imageProgress = ImageProgress()
        if Self.declaresPhases(profile.procedure) { imageProgress.stage = .unchanged }
        var firstLoss: LinkLoss?
        while true {
            let runner = ProcedureRunner(session: self, image: image, index: index, count: images.count,
                                         sequence: sequence, progress: imageProgress)
            let interruption: RunInterruption
            do {
                let result = try await runner.run()
                fold(runner)
                finalScope = result.scope
                return result.verified
            } catch {
                fold(runner)
                interruption = error
            }
            switch interruption {
            case let .failed(error):
                throw describingDevice(error, image: image)
            case .cancelled:
                throw describingDevice(FlashError(
                    kind: .cancelled, message: "cancelled before the update finished",
                    address: address?.description, image: image.name, offset: imageBytesHeld,
                    hint: "run the same command again: the profile asks the device where it stopped"), image: image)
            case let .linkLost(loss):
                let first = firstLoss ?? loss
                firstLoss = first
                do {
                    try await reconnectToResume(image, first: first, latest: loss)
                } catch {
                    throw describingDevice(error, image: image)
                }
            }
        }
    }

    /// Takes what a run counted and learned into the session's totals.
    private func fold(_ runner: ProcedureRunner) {
        let statistics = runner.statistics
        retries += statistics.retries
        sequence = statistics.sequence
        if statistics.bytesHeld > 0 { imageBytesHeld = statistics.bytesHeld }
        if transferStartedAt == nil { transferStartedAt = statistics.transferStartedAt }
        transferEndedAt = statistics.transferEndedAt ?? transferEndedAt
        imageProgress = runner.progress
    }

    /// Adds what the device holds, as far as the phases tell, to an error.
    private func describingDevice(_ error: FlashError, image: FlashImage) -> FlashError {
        guard let known = imageProgress.stage else { return error }
        var error = error
        var stages = [known]
        if [.timeout, .disconnected].contains(error.kind), let phase = imageProgress.currentPhase,
           imageProgress.currentPhaseWrote, let next = phase.achieves, next > known,
           next != .received || imageBytesHeld >= image.data.count {
            // The phase under way wrote to the device and an answer was lost: what it asked for
            // may have happened. (A device that answered with an error did not do it.)
            stages.append(next)
        }
        error.deviceHolds = stages
        var text = "the device \(known.summary)"
        if known == .unchanged, imageBytesHeld > 0 {
            text += " (it holds \(imageBytesHeld) of \(image.data.count) bytes of the new image)"
        }
        if stages.count > 1 {
            text += "; or, if it acted on what was sent in phase '\(imageProgress.currentPhase?.name ?? "")' before the "
                + "answer was lost, it \(stages[1].summary)"
        }
        error.deviceState = text
        return error
    }

    private static func declaresPhases(_ steps: [Step]) -> Bool {
        steps.contains { step in
            switch step.kind {
            case .phase: return true
            case let .conditional(_, then, otherwise): return declaresPhases(then) || declaresPhases(otherwise)
            default: return false
            }
        }
    }

    // MARK: - Resuming

    /// Reconnects after a lost link (waiting for a device that was told to reboot to come back
    /// first); a failed reconnection costs a resume attempt too.
    private func reconnectToResume(_ image: FlashImage, first: LinkLoss, latest: LinkLoss) async throws(FlashError) {
        var latest = latest
        while true {
            guard resumes < profile.resume.attempts, let current = address else {
                var message = first.summary
                if profile.resume.attempts == 0 {
                    message += "; the profile does not resume"
                } else {
                    message += "; gave up after \(resumes) resume(s)"
                    if latest.summary != first.summary { message += " (last: \(latest.summary))" }
                }
                throw FlashError(kind: first.kind, message: message, address: address?.description,
                                 image: image.name, offset: imageBytesHeld, location: first.location,
                                 hint: "move the device closer or check its power, then run the same command again")
            }
            resumes += 1
            onEvent(.resuming(attempt: resumes, of: profile.resume.attempts, reason: latest.summary))
            let reboot = imageProgress.pendingReboot
            let target = reboot?.comesBackAt == .next ? current.adding(1) : current
            if let reboot {
                do {
                    try await awaitReboot(reboot, of: target, linkStillUp: false)
                    imageProgress.pendingReboot = nil
                } catch {
                    switch error {
                    case let .linkLost(loss):
                        latest = loss
                        continue
                    case let .failed(error): throw error
                    case .cancelled: throw FlashError(kind: .cancelled, message: "cancelled while waiting for the device to reboot",
                                                      address: target.description)
                    }
                }
            }
            do {
                try await connect(to: target, timeout: profile.resume.reconnectTimeout)
                return
            } catch {
                guard [.disconnected, .timeout, .transport].contains(error.kind) else { throw error }
                latest = LinkLoss(kind: error.kind, detail: error.message)
            }
        }
    }
}
