/// What a batch reports (`DFUKit.batch`): each device's start, progress and end as the runner
/// tells them, then the summary.
public enum BatchUpdate: Sendable {
    /// A runner event: a device started, progressed, finished, was skipped or retried.
    case event(BatchEvent)
    /// How the batch ended: devices, succeeded, failed, skipped, attempts, seconds.
    case finished(BatchSummary)
}

/// Everything `DFUKit.batch` needs.
public struct BatchRequest: Sendable {
    /// The devices' protocol.
    public var profile: Profile
    /// The firmware package every device gets.
    public var package: FirmwarePackage
    /// Where the devices are: the station's radios, as device strings (`sim:NAME?fleet=N`,
    /// `hci:...`, `bluez:hciN`), one of which may name several (`bluez:hci0,hci1`). Each device
    /// goes to one radio; each radio flashes up to `line.concurrency` at once.
    public var transports: [String]
    /// The first of `transports` (a station with one radio); setting it replaces them all.
    public var device: String {
        get { transports.first ?? "" }
        set { transports = [newValue] }
    }
    /// How many devices, how many at once, retries, post-flash checks, parameters (as a line
    /// file sets them; its `profile`, `package`, `device` and `ledger` are not read here).
    public var line = LineConfiguration()
    /// Which devices are done or claimed, and where attempts are recorded; in memory by default.
    public var ledger: any BatchLedger = MemoryBatchLedger()
    /// A public key (PEM) the package's signatures must verify with before any device is
    /// touched (the profile's `signing-key` is checked as well); nil: only that.
    public var publicKeyPEM: String?
    /// A directory to record each attempt in (`dfukit batch run --record DIR`), one file per
    /// device and attempt named by the address without colons and the attempt number:
    /// `DIR/C0FFEE000001-1.dfurec` (see `FlashRequest.recordFile`). Created when missing, if its
    /// parent exists. On `hci:` the controller's HCI packets go to `DIR/hci.btsnoop`.
    public var recordDirectory: String?
    /// The schemes `device` may name.
    public var registry: TransportRegistry = .standard

    /// A batch of `package` with `profile` on the devices `device` reaches.
    public init(profile: Profile, package: FirmwarePackage, device: String) {
        self.init(profile: profile, package: package, transports: [device])
    }

    /// A batch of `package` with `profile` on the devices the radios of `transports` reach
    /// (e.g. `["bluez:hci0,hci1"]`, or `["hci:tcp:127.0.0.1:9001", "hci:tcp:127.0.0.1:9002"]`).
    public init(profile: Profile, package: FirmwarePackage, transports: [String]) {
        self.profile = profile
        self.package = package
        self.transports = transports
    }
}

extension DFUKit {
    /// Runs a provisioning batch (as `dfukit batch run`): checks the line against the profile
    /// and package before any device is touched (`Preflight.batch`), then flashes up to `line.concurrency`
    /// devices at once on each of the station's radios (`transports`), with retries and checks. The last event is `.finished(summary)`;
    /// cancelling the task cancels the running attempts, and the sequence then throws
    /// `.cancelled` after the summary. A batch in which some device failed still finishes
    /// normally: read `summary.failed`.
    public static func batch(_ request: BatchRequest) -> DFUKitEvents<BatchUpdate> {
        DFUKitEvents { (channel) throws(DFUKitError) in
            let plan = try Preflight.batch(request)
            let runner = plan.runner(radios: try plan.radioSources(), ledger: request.ledger) { channel.send(.event($0)) }
            let summary: BatchSummary
            do throws(FlashError) {
                summary = try await runner.run()
            } catch {
                throw DFUKitError(error)
            }
            channel.send(.finished(summary))
            if Task.isCancelled {
                throw DFUKitError(kind: .cancelled, message: "the batch was cancelled: \(summary.succeeded) device(s) flashed, "
                                  + "\(summary.failed) failed, \(summary.cancelled) cancelled of \(summary.devices)")
            }
        }
    }
}
