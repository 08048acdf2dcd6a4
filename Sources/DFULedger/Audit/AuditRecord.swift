import Foundation

/// What a station attests about one attempt at one device, signed with the station's key
/// (`SignedAuditRecord`) and kept in the ledger beside the attempt (`dfukit station audit`).
///
/// It is built from what the batch knows when the attempt ends: the device's identity, the
/// package and its images, the version before and after, what the device holds and what proved
/// it, the link, retries and resumes, the station, the operator and the times. The signed bytes
/// are `canonicalJSON`: JSON with sorted keys and no whitespace, marked
/// `"format":"dfukit-audit","version":1`.
public struct AuditRecord: Sendable, Hashable {
    /// The value of `format` in every record.
    public static let format = "dfukit-audit"
    /// The record layout this build writes (`version` in the JSON).
    public static let version = 1

    /// One image of the package, as sent.
    public struct Image: Sendable, Hashable {
        /// The image's name in the package (`application`, `softdevice`, ...).
        public var name: String
        /// The version the package gives it.
        public var version: String
        /// SHA-256 of the image's bytes, lowercase hex.
        public var sha256: String

        /// An image named `name`, of `version`, whose bytes hash to `sha256`.
        public init(name: String, version: String, sha256: String) {
            self.name = name
            self.version = version
            self.sha256 = sha256
        }
    }

    /// What the last connection was granted (each nil: the stack did not say).
    public struct Link: Sendable, Hashable {
        /// Where the values come from: `controller`, `kernel` or `model` (the simulator).
        public var source: String
        /// The PHY of each direction (`1M`, `2M`, `Coded`).
        public var txPHY: String?, rxPHY: String?
        /// Link-layer payload octets of each direction.
        public var txOctets: Int?, rxOctets: Int?
        /// The ATT_MTU in use.
        public var mtu: Int?
        /// The connection interval, microseconds.
        public var intervalMicroseconds: Int?
        /// Peripheral latency, connection events.
        public var latency: Int?
        /// The supervision timeout, milliseconds.
        public var supervisionTimeoutMilliseconds: Int?

        /// Link values from `source`; every other one nil until set.
        public init(source: String) {
            self.source = source
        }
    }

    /// The device's address as the transport names it.
    public var address: String
    /// The serial number, when the profile reads one.
    public var serial: String?
    /// The hardware identifier, when the profile reads one.
    public var hardwareID: String?
    /// The profile the device was updated with.
    public var profile: String
    /// SHA-256 of the package file, lowercase hex.
    public var packageSHA256: String
    /// The package's images in send order.
    public var images: [Image]
    /// The firmware version the device was seen to run before the update (`skip-installed`
    /// reads it); nil when it was not read.
    public var versionBefore: String?
    /// The version the device runs after the attempt when that is known: the package's for an
    /// attempt that succeeded or found it installed; nil otherwise.
    public var versionAfter: String?
    /// How the attempt ended: `succeeded`, `failed`, `cancelled` or `skipped`.
    public var result: String
    /// The failure's short name (`timeout`, `transport`, ...); nil on success.
    public var errorKind: String?
    /// The failure as a user reads it; nil on success.
    public var errorMessage: String?
    /// What the device holds of the last image (`unchanged`, `confirmed`, ...): one stage, or two
    /// when a lost answer leaves it open; empty when the profile declares no phases.
    public var deviceHolds: [String]
    /// What proved `deviceHolds`, in words; nil when nothing did.
    public var evidence: String?
    /// What the last connection was granted; nil when the transport cannot tell.
    public var link: Link?
    /// Image bytes the device acknowledged.
    public var bytes: Int
    /// Steps tried again within the attempt.
    public var retries: Int
    /// Reconnections after a lost link that went on with the update.
    public var resumes: Int
    /// 1 for the first attempt at this device and package, counting across runs.
    public var attempt: Int
    /// The ledger claim the attempt was made under.
    public var claimID: String
    /// The station that made the attempt.
    public var station: String
    /// Who ran the station (`--operator`, by default the login name); nil when not given.
    public var operatorName: String?
    /// When the attempt started and ended (on `clock`).
    public var startedAt: Date, endedAt: Date
    /// How long it took, in seconds on `clock`.
    public var seconds: Double
    /// `wall` or `simulated`.
    public var clock: String

    /// A record of attempt `attempt` at `address` under `claimID`; the optional facts are nil
    /// (or empty) until set.
    public init(address: String, profile: String, packageSHA256: String, images: [Image], result: String,
                attempt: Int, claimID: String, station: String, startedAt: Date, endedAt: Date, seconds: Double,
                clock: String) {
        self.address = address
        self.profile = profile
        self.packageSHA256 = packageSHA256
        self.images = images
        self.result = result
        self.deviceHolds = []
        self.bytes = 0
        self.retries = 0
        self.resumes = 0
        self.attempt = attempt
        self.claimID = claimID
        self.station = station
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.seconds = seconds
        self.clock = clock
    }
}
