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
    let requestedAddress: DeviceAddress?
    /// The address the update started at (the device may move: a bootloader on address + 1).
    private(set) var originAddress: DeviceAddress?
    let onEvent: (FlashEvent) -> Void

    /// The current connection (replaced on reconnect).
    private(set) var link: (any GATTLink)?
    private(set) var bindings: ConnectionBindings?
    private(set) var address: DeviceAddress?
    /// What the stack granted the current connection.
    var linkGrant: LinkGrant?
    private(set) var startedAt: Duration = .zero
    private var retries = 0
    /// The next request sequence number (`sequence` in profiles), kept across images and runs.
    private var sequence = 0
    var resumes = 0
    private(set) var delivered = 0
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
    public init(profile: Profile, images: [FlashImage], transport: any GATTTransport, address: DeviceAddress?,
                options: FlashOptions = FlashOptions(), onEvent: @escaping (FlashEvent) -> Void = { _ in }) {
        self.profile = profile
        self.options = options
        self.images = images
        self.transport = transport
        self.requestedAddress = address
        self.onEvent = onEvent
    }

    /// Runs the update to its end and reports how it went; it never throws (a failure is in the
    /// report). Cancelling the task stops it with a `.cancelled` error.
    public func run() async -> FlashReport {
        startedAt = transport.now
        var status = FlashReport.Status.verified
        var failure: FlashError?
        do throws(FlashError) {
            try options.validate(for: profile)
            let target = try await resolveAddress()
            if let expired = attemptExpired(while: "scanning") { throw expired }
            address = target
            originAddress = target
            try await connectFirst(to: target)
            for (index, image) in images.enumerated() {
                if let expired = attemptExpired(while: "connecting to \(target)") { throw expired }
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
            // Said only of a device that was reached (not of a missing adapter or a bad option).
            if failure?.deviceState == nil, address != nil || error.kind == .cancelled,
               ![.transport, .usage, .profile].contains(error.kind) {
                failure?.deviceState = "the update stopped before any image was sent: the device holds what it held before"
                if error.kind == .cancelled, delivered == 0 { failure?.deviceHolds = [.unchanged] }
            }
        }
        if let link { await link.disconnect() }
        var report = FlashReport(status: status, profile: profile.name, device: transport.name,
                                 address: address?.description,
                                 bytes: delivered + (status == .failed ? imageBytesHeld : 0),
                                 seconds: elapsedSeconds, retries: retries, resumes: resumes, error: failure,
                                 transferSeconds: transferSeconds)
        report.deviceHolds = failure?.deviceHolds ?? imageProgress.stage.map { [$0] } ?? []
        report.phasesDone = imageProgress.phaseOrder
        report.link = linkGrant
        return report
    }

    var elapsed: Duration { transport.now - startedAt }
    private var elapsedSeconds: Double { Double(elapsed / .seconds(1)) }
    private var transferSeconds: Double? {
        guard let start = transferStartedAt, let end = transferEndedAt, end > start else { return nil }
        return Double((end - start) / .seconds(1))
    }

    /// A new connection replaces the current one.
    func adopt(link newLink: any GATTLink, bindings newBindings: ConnectionBindings, address target: DeviceAddress) {
        link = newLink
        bindings = newBindings
        address = target
    }

    // MARK: - One image

    private func flashWithResume(_ image: FlashImage, index: Int) async throws(FlashError) -> Bool {
        imageBytesHeld = 0
        imageProgress = ImageProgress()
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

    /// The first connection: a link lost while connecting (discovery, subscribing) is retried
    /// like any lost link, as the profile's resume policy allows.
    private func connectFirst(to target: DeviceAddress) async throws(FlashError) {
        do {
            try await connect(to: target, timeout: profile.resume.reconnectTimeout)
        } catch where [.disconnected, .timeout].contains(error.kind) && profile.resume.attempts > 0
                    && attemptExpired(while: "connecting") == nil {
            let loss = LinkLoss(kind: error.kind, detail: error.message, step: "connect")
            try await reconnectToResume(nil, first: loss, latest: loss)
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
}
