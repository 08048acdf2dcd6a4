import DFUBytes
import DFUGATT
import DFUProfile

/// The thin async layer under the pure machines: it finds and connects to the device, binds
/// the profile's characteristics, runs the procedure for each image (through
/// `ProcedureRunner`) and, after a disconnect, reconnects and runs the image's procedure again
/// (which asks the device where it stopped), as the profile's `resume` policy allows.
public final class FlashSession {
    let profile: Profile
    let options: FlashOptions
    private let images: [FlashImage]
    private let transport: any GATTTransport
    private let requestedAddress: DeviceAddress?
    let onEvent: (FlashEvent) -> Void

    /// The current connection (replaced on reconnect).
    private(set) var link: (any GATTLink)?
    private(set) var bindings: CharacteristicBindings?
    private(set) var address: DeviceAddress?
    private(set) var startedAt: Duration = .zero
    var retries = 0
    /// The next request sequence number (`sequence` in profiles), kept across images.
    var sequence = 0
    private var resumes = 0
    private var delivered = 0
    /// Bytes of the current image the device holds, as far as progress tells.
    var imageProgress = 0
    /// The transfer phase: from the first step that moved image data to the last progress.
    var transferStartedAt: Duration?
    var transferEndedAt: Duration?
    /// The variables at the end of the last procedure run (for `dfukit exec`).
    public internal(set) var finalScope: Scope?

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
                           bytes: delivered + (status == .failed ? imageProgress : 0),
                           seconds: elapsedSeconds, retries: retries, resumes: resumes, error: failure,
                           transferSeconds: transferSeconds)
    }

    var elapsed: Duration { transport.now - startedAt }
    private var elapsedSeconds: Double { Double(elapsed / .seconds(1)) }
    private var transferSeconds: Double? {
        guard let start = transferStartedAt, let end = transferEndedAt, end > start else { return nil }
        return Double((end - start) / .seconds(1))
    }

    // MARK: - Connection

    private func resolveAddress() async throws(FlashError) -> DeviceAddress {
        if let requestedAddress { return requestedAddress }
        onEvent(.scanning(transport: transport.name))
        let seen: [Advertisement]
        do {
            seen = try await transport.scan(timeout: .seconds(5))
        } catch {
            throw FlashError(kind: .transport, message: error.kind == .transportUnavailable
                             ? error.detail : "scanning failed: \(error)")
        }
        guard let match = seen.first(where: { ProfileMatcher.matches($0, profile.match) }) else {
            let list = seen.map { "\($0.address) \($0.name ?? "(no name)")" }.joined(separator: ", ")
            throw FlashError(kind: .transport,
                             message: "no advertising device matches profile '\(profile.name)' (seen: \(list.isEmpty ? "none" : list))",
                             hint: "is the device powered and advertising? Name it with --device TRANSPORT/ADDRESS")
        }
        return match.address
    }

    /// Connects, discovers, binds the characteristics and subscribes to notifications.
    func connect(to target: DeviceAddress, timeout: Duration) async throws(FlashError) {
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

    /// A `reconnect` step: drop the link and connect to the same address or address + 1.
    func reconnect(_ step: ReconnectStep) async throws(LinkLost) {
        guard let current = address else { throw LinkLost(detail: "not connected") }
        if let link { await link.disconnect() }
        let target = step.address == .next ? current.adding(1) : current
        do {
            try await connect(to: target, timeout: step.timeout ?? profile.resume.reconnectTimeout)
        } catch {
            throw LinkLost(fatal: error)
        }
    }

    // MARK: - One image

    private func flashWithResume(_ image: FlashImage, index: Int) async throws(FlashError) -> Bool {
        imageProgress = 0
        var firstLoss: LinkLost?
        while true {
            do {
                return try await ProcedureRunner(session: self, image: image, index: index, count: images.count).run()
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
}
