import DFUTrace

extension DFUKit {
    /// Flashes `package` to `device` with `profile`; see `flash(_:)`.
    public static func flash(_ package: FirmwarePackage, profile: Profile, device: String) -> DFUKitEvents<FlashUpdate> {
        flash(FlashRequest(package: package, profile: profile, device: device))
    }

    /// Flashes as `dfukit flash` does. Before the transport is opened, `Preflight.flash` makes
    /// every check that needs no device (the device string, the parameters, the package's
    /// checksums, kind and signatures, what the profile requires of its images). Then the
    /// engine runs the profile's procedure for each image, resuming after a lost link as the
    /// profile allows.
    ///
    /// The sequence's last event is `.finished(report)`; a failure throws a `DFUKitError`
    /// (`.package` and `.usage` before anything was sent; `.device`, `.transport`, `.cancelled`
    /// with the report of what the device holds).
    public static func flash(_ request: FlashRequest) -> DFUKitEvents<FlashUpdate> {
        DFUKitEvents { (channel) throws(DFUKitError) in
            let report = try await run(try Preflight.flash(request)) { channel.send(FlashUpdate($0)) }
            channel.send(.finished(report))
        }
    }

    /// Runs a checked flash (`Preflight.flash`), telling `onEvent` each engine event as it
    /// comes; returns the report of a flash that did not fail.
    /// - Throws: `.transport` when the transport cannot be opened, `.device`, `.cancelled`
    ///   with the report of what the device holds.
    public static func run(_ plan: FlashPlan, onEvent: @escaping (FlashEvent) -> Void) async throws(DFUKitError) -> FlashReport {
        let request = plan.request
        let traceFile = SessionRecording.traceFile(request.traceFile, recording: request.recordFile, scheme: plan.scheme)
        var transport = try plan.scheme.open(TransportRequest(target: plan.locator.target, security: request.profile.security,
                                                              traceFile: traceFile, profile: request.profile))
        var onEvent = onEvent
        var recording: RecordingTransport?
        if let path = request.recordFile {
            let subject = SessionRecording.Subject(profile: request.profile, device: request.device,
                                                   medium: plan.scheme.medium(target: plan.locator.target),
                                                   package: request.package, images: plan.images)
            let recorder = try SessionRecording.start(transport, path: path, subject: subject)
            recording = recorder
            transport = recorder
            onEvent = { [report = onEvent] event in
                recorder.recorder.note(event)
                report(event)
            }
        }
        let session = FlashSession(profile: request.profile, images: plan.images, transport: transport,
                                   address: plan.locator.address ?? transport.soleDevice, options: plan.options,
                                   onEvent: onEvent)
        let report = await session.run()
        recording?.recorder.writer.close()
        guard report.status != .failed else { throw DFUKitError(report: report) }
        return report
    }
}
