import Foundation

/// One device in flight on a station (schema 5, `dfukit_live`): what the station dashboard
/// shows while an attempt runs. Written by `Ledger.publishLive` (at most about once a second,
/// and at each phase change), deleted by `Ledger.clearLive` and in the transaction that records
/// the attempt (`Ledger.recordAttempt`) or releases the claim (`Ledger.release`).
///
/// Best effort: a station that cannot write its live rows goes on flashing; the attempt's record
/// is what counts.
public struct LiveDevice: Sendable, Hashable {
    /// The device's address.
    public var device: String
    /// SHA-256 of the package being flashed, lowercase hex.
    public var packageSHA256: String
    /// The station flashing it.
    public var station: String
    /// The ledger session of the station's process (`LedgerSession.text`): with the device and
    /// package, the row's key.
    public var session: String
    /// The radio the device is flashed through, when the station names one.
    public var radio: String?
    /// The provisioning line, when the station has one.
    public var line: String?
    /// The attempt's number at the device and package (across runs, as `Attempt.attemptNumber`).
    public var attempt: Int
    /// The phase of the profile's procedure the attempt is in (`transfer`, ...), or `connecting`
    /// before the first one.
    public var phase: String
    /// Image bytes on the device so far.
    public var done: Int
    /// Image bytes in all (0 until known).
    public var total: Int
    /// The transfer rate so far, bytes per second (0 until known).
    public var bytesPerSecond: Double
    /// The signal strength the scan heard from the device, dBm, when known.
    public var rssi: Int?
    /// The PHY of the connection (`1M`, `2M`, `Coded`), when the stack tells.
    public var phy: String?
    /// The ATT_MTU of the connection, when connected.
    public var mtu: Int?
    /// When the attempt started.
    public var startedAt: Date
    /// When the row was last written (the ledger's clock).
    public var updatedAt: Date

    /// A live row with the fields given; `updatedAt` is stamped by the ledger when published.
    public init(device: String, packageSHA256: String, station: String, session: String, radio: String? = nil,
                line: String? = nil, attempt: Int, phase: String, done: Int = 0, total: Int = 0,
                bytesPerSecond: Double = 0, rssi: Int? = nil, phy: String? = nil, mtu: Int? = nil,
                startedAt: Date, updatedAt: Date? = nil) {
        self.device = device
        self.packageSHA256 = packageSHA256
        self.station = station
        self.session = session
        self.radio = radio
        self.line = line
        self.attempt = attempt
        self.phase = phase
        self.done = done
        self.total = total
        self.bytesPerSecond = bytesPerSecond
        self.rssi = rssi
        self.phy = phy
        self.mtu = mtu
        self.startedAt = startedAt
        self.updatedAt = updatedAt ?? startedAt
    }
}
