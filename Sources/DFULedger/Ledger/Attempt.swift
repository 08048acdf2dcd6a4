import Foundation

/// One try at flashing one device: what was sent, how long it took and how it ended.
/// Written by `Ledger.recordAttempt`, read back by `Ledger.attempts` in the order recorded.
public struct Attempt: Sendable, Hashable {
    /// How an attempt ended.
    public enum Result: String, Sendable, Hashable, CaseIterable {
        /// The device confirmed the image: the device is done with this package.
        case succeeded
        /// The update failed; `errorKind` and `errorMessage` say why. The device may be tried again.
        case failed
        /// The batch was stopped (Ctrl-C, shutdown) before the attempt ended.
        case cancelled
        /// Nothing was written: the device already ran the target firmware (`skip-installed`);
        /// `deviceVersion` says what it ran. Like a success, it marks the device done.
        case skipped

        /// Whether the attempt leaves the device done with the package.
        package var marksDone: Bool { self == .succeeded || self == .skipped }
    }

    /// The clock an attempt was timed on.
    public enum Clock: String, Sendable, Hashable, CaseIterable {
        /// Real time: `startedAt`, `endedAt` and `seconds` are the wall clock's.
        case wall
        /// A simulated transport (`sim:`): `seconds` is simulated time, and `startedAt`/`endedAt`
        /// place the attempt on the batch's simulated timeline (it starts when the batch started).
        case simulated
    }

    /// The `Claim.id` this attempt was made under (one claim may carry several attempts).
    package var claimID: String
    /// The device's address as the transport names it, e.g. `C0:FF:EE:00:00:01`.
    public var device: String
    /// The device's serial number, if it was read.
    public var serial: String?
    /// SHA-256 of the firmware package, lowercase hex.
    public var packageSHA256: String
    /// The profile's name, e.g. `nordic-secure-dfu`.
    public var profile: String
    /// The station (one `dfukit batch run` process) that made the attempt.
    public var station: String
    /// When the attempt started (on the timeline of `clock`).
    public var startedAt: Date
    /// When it ended.
    public var endedAt: Date
    /// Firmware bytes the device acknowledged.
    public var bytes: Int
    /// How it ended.
    public var result: Result
    /// A short, stable name for the failure's cause (`timeout`, `disconnected`,
    /// `device-error:0x05`, ...), used to group failures in reports; nil on success.
    public var errorKind: String?
    /// The full error a user would read; nil on success.
    public var errorMessage: String?
    /// 1 for the first attempt at this device and package, counting across runs (see
    /// `Claim.nextAttemptNumber`).
    public var attemptNumber: Int
    /// Duration in seconds; by default `endedAt - startedAt`.
    public var seconds: Double
    /// Throughput; by default `bytes / seconds` (0 when `seconds` is 0).
    public var bytesPerSecond: Double
    /// The clock the attempt was timed on; nil when not recorded (ledgers written before schema 2).
    public var clock: Clock?
    /// The firmware version the device was found to run, when read (`skip-installed`).
    public var deviceVersion: String?
    /// The provisioning line the attempt belongs to (`--line`, `line:`): its halt rule counts
    /// the line's attempts on every station. Nil in ledgers older than schema version 4.
    public var line: String?
    /// The radio (HCI controller, BlueZ adapter) of the station the attempt ran on, when the
    /// station names one. Nil in ledgers older than schema version 5.
    public var radio: String?

    /// An attempt; `seconds` and `bytesPerSecond` are computed from the dates and bytes unless given
    /// (a runner may time only the transfer phase).
    public init(claimID: String, device: String, serial: String? = nil, packageSHA256: String, profile: String,
                station: String, startedAt: Date, endedAt: Date, bytes: Int, result: Result,
                errorKind: String? = nil, errorMessage: String? = nil, attemptNumber: Int,
                seconds: Double? = nil, bytesPerSecond: Double? = nil, clock: Clock? = nil, deviceVersion: String? = nil,
                line: String? = nil, radio: String? = nil) {
        self.claimID = claimID
        self.line = line
        self.radio = radio
        self.clock = clock
        self.deviceVersion = deviceVersion
        self.device = device
        self.serial = serial
        self.packageSHA256 = packageSHA256
        self.profile = profile
        self.station = station
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.bytes = bytes
        self.result = result
        self.errorKind = errorKind
        self.errorMessage = errorMessage
        self.attemptNumber = attemptNumber
        let duration = seconds ?? max(0, endedAt.timeIntervalSince(startedAt))
        self.seconds = duration
        self.bytesPerSecond = bytesPerSecond ?? (duration > 0 ? Double(bytes) / duration : 0)
    }

    /// An attempt under `claim`, taking device, package, station and attempt number from it.
    public init(claim: Claim, serial: String? = nil, profile: String, startedAt: Date, endedAt: Date, bytes: Int,
                result: Result, errorKind: String? = nil, errorMessage: String? = nil, attemptNumber: Int? = nil,
                seconds: Double? = nil, bytesPerSecond: Double? = nil, clock: Clock? = nil, deviceVersion: String? = nil,
                line: String? = nil, radio: String? = nil) {
        self.init(claimID: claim.id, device: claim.device, serial: serial, packageSHA256: claim.packageSHA256,
                  profile: profile, station: claim.station, startedAt: startedAt, endedAt: endedAt, bytes: bytes,
                  result: result, errorKind: errorKind, errorMessage: errorMessage,
                  attemptNumber: attemptNumber ?? claim.nextAttemptNumber, seconds: seconds,
                  bytesPerSecond: bytesPerSecond, clock: clock, deviceVersion: deviceVersion, line: line,
                  radio: radio)
    }
}
