/// A flash checked before the radio (`Preflight.flash`): what `DFUKit.flash` runs.
public struct FlashPlan: Sendable {
    /// The request as given.
    public var request: FlashRequest
    /// The device string's parts, and the scheme that opens it.
    public var locator: DeviceLocator
    /// The scheme `locator` names, its target checked.
    public var scheme: any TransportScheme
    /// The images in send order.
    public var images: [FlashImage]
    /// The options with every parameter checked and typed.
    public var options: FlashOptions
    /// What to show before starting.
    public var notes: [PreflightNote]
}

/// One command checked before the radio (`Preflight.exec`).
public struct ExecPlan: Sendable {
    /// The request as given.
    public var request: ExecRequest
    /// The device string's parts.
    public var locator: DeviceLocator
    /// The scheme `locator` names.
    public var scheme: any TransportScheme
    /// The command's parameters, checked and typed.
    public var options: FlashOptions
}

/// A batch line checked before any device (`Preflight.batch`).
public struct BatchPlan: Sendable {
    /// The request as given.
    public var request: BatchRequest
    /// The device string's parts.
    public var locator: DeviceLocator
    /// The scheme `locator` names.
    public var scheme: any TransportScheme
    /// The images in send order.
    public var images: [FlashImage]
    /// The line with its parameters checked and typed.
    public var line: LineConfiguration
    /// What to show before starting.
    public var notes: [PreflightNote]
    /// The station's key, read from `line.auditKey`, that signs each attempt's audit record;
    /// nil when the line signs none.
    public var auditKey: Ed25519PrivateKey?
}

extension BatchPlan {
    /// Opens where the line's devices are (with the profile's link security); with a record
    /// directory, each attempt's transport records the session there (created when missing).
    /// - Throws: `.usage` for a transport that cannot hold a batch, `.transport` when it cannot
    ///   be used here.
    public func deviceSource() throws(DFUKitError) -> any BatchDeviceSource {
        let directory = request.recordDirectory
        if let directory { try Preflight.createRecordDirectory(directory) }
        let traceFile = SessionRecording.traceFile(nil, recording: directory.map { $0 + "/hci" }, scheme: scheme)
        let source = try scheme.batchSource(TransportRequest(target: locator.target, security: request.profile.security,
                                                             traceFile: traceFile, profile: request.profile))
        guard let directory else { return source }
        return RecordingBatchSource(inner: source, directory: directory, subject: SessionRecording.Subject(
            profile: request.profile, device: request.device, medium: scheme.medium(target: locator.target),
            package: request.package, images: images))
    }

    /// The runner that flashes the devices of `source`, recording to `ledger`: what
    /// `DFUKit.batch` and `dfukit batch run` both run.
    public func runner(source: any BatchDeviceSource, ledger: any BatchLedger,
                       ledgerRetry: LedgerRetryPolicy = LedgerRetryPolicy(),
                       onEvent: @escaping @Sendable (BatchEvent) -> Void) -> BatchRunner {
        BatchRunner(plan: BatchRunner.Plan(line: line, profile: request.profile, images: images), source: source,
                    ledger: ledger, ledgerRetry: ledgerRetry, onEvent: onEvent)
    }
}
