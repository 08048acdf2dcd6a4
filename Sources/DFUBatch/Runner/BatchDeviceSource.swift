import DFUEngine
import DFUGATT

/// Where a batch finds its devices and how it reaches each: a simulated fleet, an HCI controller
/// or a BlueZ adapter holding several links. A station with several radios has one per radio
/// (`BatchRadio`).
public protocol BatchDeviceSource: Sendable {
    /// Simulated sources run each attempt on its own virtual clock; the runner then adds the
    /// times up per concurrency slot instead of reading the wall clock.
    var usesVirtualTime: Bool { get }
    /// The devices that can be flashed now. Throws when the transport cannot scan.
    func scan() async throws(FlashError) -> [Advertisement]
    /// A transport for one attempt (1-based) at one device, used only by the task that holds it.
    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport
}

/// What the runner needs from a ledger (`DFULedger` adapts to it).
///
/// Calls may throw anything: a `BatchLedgerError` of kind `claimLost` or `rejected` is final;
/// any other error is taken as the ledger being unreachable for now, and the call is retried
/// with back-off (see `LedgerRetryPolicy`). So every call must be safe to repeat: a retried
/// claim must not lock out its own station, a retried record must not add a second row. The
/// line controls (`LineControlLedger`) have defaults: a ledger without them never halts.
public protocol BatchLedger: LineControlLedger {
    /// Claims the device for this package; false when it is done already or claimed elsewhere.
    func claim(device: String) async throws -> Bool
    /// Extends the lease of the claim on the device; throws `BatchLedgerError.claimLost` when
    /// another station took it over or it is no longer active.
    func heartbeat(device: String) async throws
    /// Records one attempt; a retried call must not add a second record.
    func record(_ attempt: AttemptRecord) async throws
    /// Gives back a device that is not done, so a later run (or another station) may try it.
    func release(device: String) async throws
}

/// A ledger answer the runner must not retry.
public struct BatchLedgerError: Error, Sendable, CustomStringConvertible {
    /// Why the ledger refused.
    public enum Kind: Sendable, Equatable {
        /// The claim is no longer this station's (its lease ran out and another station took
        /// the device, or the device was marked done or released meanwhile).
        case claimLost
        /// The ledger refused the call itself (a bad argument): repeating it changes nothing.
        case rejected
    }

    /// Why the ledger refused.
    public var kind: Kind
    /// What happened, for the user.
    public var message: String

    /// An error of `kind` that says `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// One attempt at one device, as the ledger records it.
public struct AttemptRecord: Sendable {
    /// How the attempt ended; the raw value is what the ledger stores.
    public enum Result: String, Sendable {
        /// `skipped`: the device already ran the target firmware (`skip-installed`); nothing was written.
        case succeeded, failed, cancelled, skipped
    }

    /// Which clock `startedAt`, `endedAt` and `seconds` were measured on.
    public enum Clock: String, Sendable {
        /// `wall`: real seconds; `simulated`: the simulator's virtual seconds (`sim:`).
        case wall, simulated
    }

    /// The device's address, "C0:11:22:33:44:55".
    public var device: String
    /// 1 for the first attempt at the device in this run, 2 for the first retry...
    public var attempt: Int
    /// When the attempt started, in seconds since 1970 (on `clock`).
    public var startedAt: Double
    /// When it ended, in seconds since 1970 (on `clock`).
    public var endedAt: Double
    /// How long it took, in seconds on `clock`.
    public var seconds: Double
    /// Image bytes the device acknowledged during the attempt.
    public var bytes: Int
    /// How it ended.
    public var result: Result
    /// For a failure, the kind of `FlashError` ("transport", "device", "timeout", ...).
    public var errorKind: String?
    /// For a failure, its message.
    public var errorMessage: String?
    /// Which clock the times were measured on.
    public var clock: Clock = .wall
    /// The firmware version the device was found to run (`skip-installed`), when it was read.
    public var deviceVersion: String?
    /// The version the device ran before the attempt, when `skip-installed` read it (also when it
    /// was not the target and the device was flashed).
    public var versionBefore: String?
    /// What the device holds of the last image after the attempt (`FirmwareStage` raw values:
    /// one stage, or two when a lost answer leaves it open); empty when nothing tells.
    public var deviceHolds: [String] = []
    /// What proved `deviceHolds`, in words (`FlashReport.evidence`).
    public var evidence: String?
    /// What the stack granted the attempt's last connection (nil: it cannot tell, or none was made).
    public var link: LinkGrant?
    /// Steps tried again within the attempt (`FlashReport.retries`).
    public var retries = 0
    /// Reconnections after a lost link that went on with the update (`FlashReport.resumes`).
    public var resumes = 0
    /// The radio the attempt ran on (`BatchRadio.name`); nil for a runner made with one unnamed source.
    public var radio: String?
}
