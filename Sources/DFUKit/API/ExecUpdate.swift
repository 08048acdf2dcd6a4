import DFUTrace

/// What sending one command of a profile reports (`DFUKit.exec`): the engine's events while it
/// connects, then the device's answer.
public enum ExecUpdate: Sendable {
    /// An engine event (scanning, connecting, connected...).
    case detail(FlashEvent)
    /// The device's answer, field by field as the profile's response decodes it, and the
    /// engine's report of the run.
    case answer([String: Value], report: FlashReport)
}

/// Everything `DFUKit.exec` needs.
public struct ExecRequest: Sendable {
    /// A key of the profile's `commands`.
    public var command: String
    /// The profile that defines it.
    public var profile: Profile
    /// `SCHEME:TARGET[/ADDRESS]`.
    public var device: String
    /// The parameters the command's request reads.
    public var parameters: [String: ParameterValue] = [:]
    /// Whether a command the profile marks `changes-device` (erase, write, activate, reset)
    /// may be sent; false refuses it with `.usage` (`dfukit exec --yes`).
    public var allowChangingDevice = false
    /// A file to record the session in (`dfukit exec --record FILE`), as `FlashRequest.recordFile`.
    public var recordFile: String?
    /// The schemes `device` may name.
    public var registry: TransportRegistry = .standard

    /// A request for `command` of `profile` on `device`.
    public init(command: String, profile: Profile, device: String) {
        self.command = command
        self.profile = profile
        self.device = device
    }
}

extension DFUKit {
    /// Sends one command of a profile and yields the answer (as `dfukit exec`): connects as a
    /// flash would, sends it once, disconnects. Throws `.usage` for an unknown command or one
    /// that changes the device without `allowChangingDevice`, `.device` when the device
    /// refuses or does not answer.
    public static func exec(_ request: ExecRequest) -> DFUKitEvents<ExecUpdate> {
        DFUKitEvents { (channel) throws(DFUKitError) in
            let result = try await run(try Preflight.exec(request)) { channel.send(.detail($0)) }
            guard let fields = result.fields else { throw DFUKitError(report: result.report) }
            channel.send(.answer(fields, report: result.report))
        }
    }

    /// Sends a checked command (`Preflight.exec`), telling `onEvent` each engine event; returns
    /// the answer's fields (nil when the device refused or did not answer) and the report.
    /// - Throws: `.transport` when the transport cannot be opened.
    public static func run(_ plan: ExecPlan,
                           onEvent: @escaping @Sendable (FlashEvent) -> Void = { _ in }) async throws(DFUKitError) -> CommandExecution.Result {
        let profile = plan.request.profile
        let traceFile = SessionRecording.traceFile(nil, recording: plan.request.recordFile, scheme: plan.scheme)
        var transport = try plan.scheme.open(TransportRequest(target: plan.locator.target, security: profile.security,
                                                              traceFile: traceFile, profile: profile))
        var onEvent = onEvent
        var recording: RecordingTransport?
        if let path = plan.request.recordFile {
            let subject = SessionRecording.Subject(profile: profile, device: plan.request.device,
                                                   medium: plan.scheme.medium(target: plan.locator.target), images: [])
            let recorder = try SessionRecording.start(transport, path: path, subject: subject)
            recording = recorder
            transport = recorder
            let notes = recorder.recorder
            onEvent = { [report = onEvent] event in
                notes.note(event)
                report(event)
            }
        }
        let result = await CommandExecution.run(plan.request.command, profile: profile, transport: transport,
                                                address: plan.locator.address ?? transport.soleDevice, options: plan.options,
                                                onEvent: onEvent)
        recording?.recorder.writer.close()
        return result
    }
}
