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
    /// The first radio's device string's parts.
    public var locator: DeviceLocator
    /// The scheme `locator` names.
    public var scheme: any TransportScheme
    /// The station's radios, in the order given (at least one).
    public var radios: [BatchRadioPlan]
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
    /// Opens where the line's devices are on the first radio (with the profile's link security);
    /// with a record directory, each attempt's transport records the session there (created when
    /// missing). A station with several radios opens them all with `radioSources()`.
    /// - Throws: `.usage` for a transport that cannot hold a batch, `.transport` when it cannot
    ///   be used here.
    public func deviceSource() throws(DFUKitError) -> any BatchDeviceSource {
        try source(for: radios[0], traceName: "hci")
    }

    /// Opens every radio, as `deviceSource()` opens one. The same simulated fleet given twice is
    /// one fleet heard by two radios. On `hci:` each controller's HCI packets go to the record
    /// directory's `hci.btsnoop` (one radio) or `hci-NAME.btsnoop` (several).
    /// - Throws: as `deviceSource()`, for the first radio that cannot be opened.
    public func radioSources() throws(DFUKitError) -> [BatchRadio] {
        var opened: [BatchRadio] = []
        for (index, radio) in radios.enumerated() {
            let twin = radios[..<index].firstIndex {
                $0.locator.scheme == radio.locator.scheme && $0.locator.target == radio.locator.target
            }
            if let twin, radio.scheme.sharesDevicesAcrossRadios(target: radio.locator.target) {
                opened.append(BatchRadio(name: radio.name, source: opened[twin].source))
                continue
            }
            let source = try source(for: radio, traceName: radios.count == 1 ? "hci" : "hci-" + radio.name)
            opened.append(BatchRadio(name: radio.name, source: source))
        }
        return opened
    }

    private func source(for radio: BatchRadioPlan, traceName: String) throws(DFUKitError) -> any BatchDeviceSource {
        let directory = request.recordDirectory
        if let directory { try Preflight.createRecordDirectory(directory) }
        let traceFile = SessionRecording.traceFile(nil, recording: directory.map { $0 + "/" + traceName },
                                                   scheme: radio.scheme)
        let source = try radio.scheme.batchSource(TransportRequest(target: radio.locator.target,
                                                                   security: request.profile.security,
                                                                   traceFile: traceFile, profile: request.profile))
        guard let directory else { return source }
        return RecordingBatchSource(inner: source, directory: directory, subject: SessionRecording.Subject(
            profile: request.profile, device: radio.device, medium: radio.scheme.medium(target: radio.locator.target),
            package: request.package, images: images))
    }

    /// The runner that flashes the devices of `source`, recording to `ledger`: a station with one
    /// radio, unnamed (see `runner(radios:ledger:ledgerRetry:onEvent:)`).
    public func runner(source: any BatchDeviceSource, ledger: any BatchLedger,
                       ledgerRetry: LedgerRetryPolicy = LedgerRetryPolicy(),
                       onEvent: @escaping @Sendable (BatchEvent) -> Void) -> BatchRunner {
        BatchRunner(plan: BatchRunner.Plan(line: line, profile: request.profile, images: images), source: source,
                    ledger: ledger, ledgerRetry: ledgerRetry, onEvent: onEvent)
    }

    /// The runner that flashes the devices the station's `radios` reach (`radioSources()`), each
    /// device on one radio, recording to `ledger`: what `DFUKit.batch` and `dfukit batch run` both run.
    public func runner(radios: [BatchRadio], ledger: any BatchLedger,
                       ledgerRetry: LedgerRetryPolicy = LedgerRetryPolicy(),
                       onEvent: @escaping @Sendable (BatchEvent) -> Void) -> BatchRunner {
        BatchRunner(plan: BatchRunner.Plan(line: line, profile: request.profile, images: images), radios: radios,
                    ledger: ledger, ledgerRetry: ledgerRetry, onEvent: onEvent)
    }
}
