import DFUGATT

/// What a batch reports as it goes (from several tasks at once).
public enum BatchEvent: Sendable {
    /// An attempt at a device starts in concurrency slot `slot` (0-based; a radio's slots follow
    /// the previous radio's), on the radio named `radio` (nil: a runner made with one unnamed source).
    case deviceStarted(DeviceAddress, attempt: Int, slot: Int, radio: String?)
    /// `done` of `total` image bytes are on the device.
    case progress(DeviceAddress, done: Int, total: Int)
    /// The attempt at the device entered `phase` of the profile's procedure (`transfer`, ...).
    /// With `skip-installed`, the first attempt's probe may tell its phases before `deviceStarted`.
    case devicePhase(DeviceAddress, phase: String)
    /// The attempt connected to the device, or learned more of the connection: the ATT_MTU, the
    /// PHY this side transmits on (`1M`, `2M`, `Coded`) and the signal strength the scan heard
    /// (dBm); nil for what is not told (what was told before still holds).
    case deviceLink(DeviceAddress, mtu: Int?, phy: String?, rssi: Int?)
    /// An attempt ended, in `seconds` (simulated on `sim:`), with the error's text if it failed.
    case deviceFinished(DeviceAddress, succeeded: Bool, attempt: Int, seconds: Double, error: String?)
    /// A device was not flashed: already done, claimed by another station, or running the target.
    case deviceSkipped(DeviceAddress, reason: String)
    /// Another attempt at the device starts after the backoff delay `after`.
    case retryScheduled(DeviceAddress, attempt: Int, after: Duration, reason: String)
    /// No new device will be started (interrupted, the count reached, the ledger unreachable).
    case stopping(reason: String)
    /// The station lost its claim on the device while working on it (the attempt was stopped).
    case claimLost(DeviceAddress, reason: String)
    /// The line is halted (by this station's rule or another's, `recordedHere` when this station
    /// recorded the halt): no new device starts until an operator resumes it; `waiting` when this
    /// station polls the ledger for the resume, false when it ends the run (`--exit-when-halted`).
    case lineHalted(LineHalt, recordedHere: Bool, waiting: Bool)
    /// The line was resumed: this station starts new devices again.
    case lineResumed(line: String)
    /// The device reached the line's quarantine limit after `failures` failed attempts: it is not
    /// retried, and no station claims it until an operator releases it.
    case deviceQuarantined(DeviceAddress, failures: Int)
    /// A radio can no longer be used (its adapter is gone or down, it cannot scan): it starts
    /// nothing more; `untried` are the devices that waited on it, counted as failed. Other radios go on.
    case radioFailed(radio: String, reason: String, untried: [DeviceAddress])
    /// A ledger write was never confirmed (the ledger stayed unreachable): what may be missing.
    case ledgerWriteFailed(DeviceAddress, operation: String, error: String)
}

/// How a batch ended.
public struct BatchSummary: Sendable {
    /// Devices the batch worked on or skipped.
    public var devices: Int
    /// Devices updated (and checked) in this run.
    public var succeeded: Int
    /// Devices whose every attempt failed (the last one failed), and devices that waited on a
    /// radio that failed (never tried: see `radios`).
    public var failed: Int
    /// Devices not done whose last attempt was cancelled (Ctrl-C twice, a lost claim): never
    /// counted as failed, as the ledger and `batch report` record them.
    public var cancelled: Int = 0
    /// Devices skipped: done with this package already, claimed elsewhere, or running the target.
    public var skipped: Int
    /// Attempts made, retries included.
    public var attempts: Int
    /// Simulated seconds on `sim:` (the busiest concurrency slot), else wall-clock seconds.
    public var seconds: Double
    /// True when the batch stopped before every device was done (interrupted or the ledger failed).
    public var stoppedEarly: Bool
    /// Why the ledger counts as unreachable, when it stopped the batch.
    public var ledgerFailure: String?
    /// Attempts whose record the ledger never confirmed (it stayed unreachable). Such a record
    /// may still be in the ledger, if only its answer was lost.
    public var unconfirmedRecords: Int
    /// Devices whose claim this station lost while working on them (their attempt was stopped).
    public var claimsLost: Int
    /// The halt that ended the run (`WhenHalted.exit`), or nil.
    public var lineHalt: LineHalt?
    /// Halts this station recorded (its rule held).
    public var halts = 0
    /// Devices this station quarantined.
    public var quarantined = 0
    /// Devices not started because they were quarantined already.
    public var quarantinedSkipped = 0
    /// Each radio's share, in the order the radios were given.
    public var radios: [BatchRadioSummary] = []
}
