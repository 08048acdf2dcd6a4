import DFUBytes
import DFUGATT
import DFUProfile

/// The flash procedure over a `DeviceSession`: it runs the profile's procedure for each image
/// (a `ProcedureRunner` per run) over the session's link and, after a lost link, reconnects
/// (waiting for a rebooting device to come back) and runs the image's procedure again, as the
/// profile's `resume` policy allows. The procedure asks the device what it holds, so running it
/// again continues where the device is. Made with `init(profile:images:transport:...)` it has a
/// session of its own, which it closes at the end; made over a session (a batch attempt's, which
/// probes and checks on the same link), it leaves the link up for what comes next.
public final class FlashSession {
    /// The connection to the device, kept after the procedure when the session is shared.
    let device: DeviceSession
    /// The profile whose procedure runs (a one-step procedure for a command).
    let profile: Profile
    private let images: [FlashImage]
    /// Whether the session is this procedure's own (then it ends with the procedure).
    private let ownsDevice: Bool
    private var startedAt: Duration = .zero
    private var retries = 0
    var resumes = 0
    /// Bytes of the images finished in this session (what the device holds of them).
    private(set) var delivered = 0
    /// Image bytes this session moved onto the device (`FlashReport.bytes`), over the images
    /// finished; `imageBytesSent` for the current one.
    private var bytesSent = 0
    private var imageBytesSent = 0
    /// Image bytes the device held before this session moved any (`FlashReport.bytesAlreadyOnDevice`);
    /// `imageHeldAtStart` for the current image, nil until a run moved some of its data.
    private var bytesAlreadyOnDevice = 0
    private var imageHeldAtStart: Int?
    /// Why images were not sent (`FlashReport.notSent`).
    private var notSent: [String] = []
    /// The image under way (counted in the totals when it ends, finished or not).
    private var currentImage: FlashImage?
    /// Bytes of the current image the device holds, as far as progress tells.
    var imageBytesHeld = 0
    /// What the session knows of the current image's progress on the device.
    var imageProgress = ImageProgress()
    /// The transfer phase: from the first step that moved image data to the last progress.
    private var transferStartedAt: Duration?
    private var transferEndedAt: Duration?
    /// Whether the device answered any of the procedure's requests in this attempt (discovery
    /// does not count: the stack answers it). A device that never did is not resumed for long.
    var deviceAnswered = false
    /// The variables at the end of the last procedure run (for `dfukit exec`).
    package private(set) var finalScope: Scope?

    /// A session that flashes `images` in order with `profile` over `transport`, to the device at
    /// `address` or (nil) the first advertising device that matches the profile; `onEvent` gets each
    /// event as it happens, on the task that runs the session.
    public convenience init(profile: Profile, images: [FlashImage], transport: any GATTTransport, address: DeviceAddress?,
                            options: FlashOptions = FlashOptions(), onEvent: @escaping (FlashEvent) -> Void = { _ in }) {
        self.init(on: DeviceSession(profile: profile, transport: transport, address: address, options: options,
                                    onEvent: onEvent),
                  profile: profile, images: images, ownsDevice: true)
    }

    /// The procedure of `profile` for `images`, over `device`'s link (connected first if it is
    /// not); the link stays up afterwards unless `ownsDevice`.
    package init(on device: DeviceSession, profile: Profile, images: [FlashImage], ownsDevice: Bool = false) {
        self.device = device
        self.profile = profile
        self.images = images
        self.ownsDevice = ownsDevice
    }

    var options: FlashOptions { device.options }
    var transport: any GATTTransport { device.transport }
    var onEvent: (FlashEvent) -> Void { device.onEvent }
    var link: (any GATTLink)? { device.link }
    var bindings: ConnectionBindings? { device.bindings }
    var address: DeviceAddress? { device.address }

    /// Runs the update to its end and reports how it went; it never throws (a failure is in the
    /// report). Cancelling the task stops it with a `.cancelled` error.
    public func run() async -> FlashReport {
        startedAt = transport.now
        var status = FlashReport.Status.verified
        var failure: FlashError?
        do throws(FlashError) {
            try options.validate(for: profile)
            try await connectFirst()
            for (index, image) in images.enumerated() {
                if let expired = attemptExpired(while: address.map { "connecting to \($0)" } ?? "connecting") { throw expired }
                onEvent(.imageStarted(name: image.name, size: image.data.count, index: index, count: images.count))
                let verified = try await flashWithResume(image, index: index)
                countImage(image, finished: true)
                currentImage = nil
                delivered += image.data.count
                imageBytesHeld = 0
                onEvent(.imageFinished(name: image.name, verified: verified))
                if !verified { status = .completed }
            }
        } catch {
            status = .failed
            failure = error
            if let image = currentImage { countImage(image, finished: false) }
            // Said only of a device that was reached (not of a missing adapter or a bad option).
            if failure?.deviceState == nil, address != nil || error.kind == .cancelled,
               ![.transport, .usage, .profile].contains(error.kind) {
                failure?.deviceState = "the update stopped before any image was sent: the device holds what it held before"
                if error.kind == .cancelled, bytesSent == 0 { failure?.deviceHolds = [.unchanged] }
            }
        }
        // A rebooting command with no `reconnect` after it (Nordic's last Execute): whatever runs
        // next on the session waits for the reboot first.
        if let reboot = imageProgress.pendingReboot { device.pendingReboot = reboot }
        if ownsDevice { await device.close() }
        var report = FlashReport(status: status, profile: profile.name, device: transport.name,
                                 address: address?.description,
                                 bytes: bytesSent, seconds: elapsedSeconds, retries: retries, resumes: resumes,
                                 error: failure, transferSeconds: transferSeconds)
        report.bytesAlreadyOnDevice = bytesAlreadyOnDevice
        report.notSent = notSent.isEmpty ? nil : notSent.joined(separator: "; ")
        report.deviceHolds = failure?.deviceHolds ?? imageProgress.openHolds ?? imageProgress.stage.map { [$0] } ?? []
        report.evidence = imageProgress.evidence
        report.phasesDone = imageProgress.phaseOrder
        report.link = device.linkGrant
        return report
    }

    var elapsed: Duration { transport.now - startedAt }
    private var elapsedSeconds: Double { Double(elapsed / .seconds(1)) }
    private var transferSeconds: Double? {
        guard let start = transferStartedAt, let end = transferEndedAt, end > start else { return nil }
        return Double((end - start) / .seconds(1))
    }

    // MARK: - One image

    private func flashWithResume(_ image: FlashImage, index: Int) async throws(FlashError) -> Bool {
        imageBytesHeld = 0
        currentImage = image
        imageBytesSent = 0
        imageHeldAtStart = nil
        imageProgress = ImageProgress()
        var firstLoss: LinkLoss?
        while true {
            let runner = ProcedureRunner(session: self, image: image, index: index, count: images.count,
                                         sequence: device.sequence, progress: imageProgress)
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

    /// The link the procedure starts on: the session's, or its first connection (or one after a
    /// reboot the last procedure left due). A link lost while connecting (discovery, subscribing)
    /// is retried like any lost link, as the profile's resume policy allows.
    private func connectFirst() async throws(FlashError) {
        do {
            try await device.prepareLink()
        } catch where address != nil && [.disconnected, .timeout].contains(error.kind) && profile.resume.attempts > 0
                    && attemptExpired(while: "connecting") == nil {
            let loss = LinkLoss(kind: error.kind, detail: error.message, step: "connect")
            try await reconnectToResume(nil, first: loss, latest: loss)
        }
    }

    /// Adds the image's bytes to the totals: what the runs moved, and what the device held
    /// before. A finished image none of whose data moved, with a phase the device showed done,
    /// was already there: all of it counts as held, and the report says why nothing was sent.
    private func countImage(_ image: FlashImage, finished: Bool) {
        bytesSent += imageBytesSent
        if let held = imageHeldAtStart {
            bytesAlreadyOnDevice += held
        } else if finished, imageBytesSent == 0, !imageProgress.phasesFoundDone.isEmpty {
            bytesAlreadyOnDevice += image.data.count
            let phases = imageProgress.phasesFoundDone.map { "'\($0)'" }.joined(separator: ", ")
            notSent.append("the device already held '\(image.name)' (phase \(phases) already done)")
        }
    }

    /// Takes what a run counted and learned into the session's totals.
    private func fold(_ runner: ProcedureRunner) {
        let statistics = runner.statistics
        retries += statistics.retries
        device.sequence = statistics.sequence
        imageBytesSent += statistics.bytesSent
        if imageHeldAtStart == nil {
            imageHeldAtStart = statistics.heldAtTransferStart
        } else if let start = statistics.heldAtTransferStart, start > imageBytesHeld {
            // A resumed run found the device further than the last run saw it get: writes that
            // went out before the link was lost, whose progress never came back, were this
            // command's too.
            imageBytesSent += start - imageBytesHeld
        }
        if statistics.bytesHeld > 0 { imageBytesHeld = statistics.bytesHeld }
        if transferStartedAt == nil { transferStartedAt = statistics.transferStartedAt }
        transferEndedAt = statistics.transferEndedAt ?? transferEndedAt
        imageProgress = runner.progress
    }
}
