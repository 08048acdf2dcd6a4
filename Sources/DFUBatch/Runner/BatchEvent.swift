import DFUGATT

/// What a batch reports as it goes (from several tasks at once).
public enum BatchEvent: Sendable {
    case deviceStarted(DeviceAddress, attempt: Int, slot: Int)
    case progress(DeviceAddress, done: Int, total: Int)
    case deviceFinished(DeviceAddress, succeeded: Bool, attempt: Int, seconds: Double, error: String?)
    case deviceSkipped(DeviceAddress, reason: String)
    case retryScheduled(DeviceAddress, attempt: Int, after: Duration, reason: String)
    case stopping(reason: String)
    /// The station lost its claim on the device while working on it (the attempt was stopped).
    case claimLost(DeviceAddress, reason: String)
    /// A ledger write was never confirmed (the ledger stayed unreachable): what may be missing.
    case ledgerWriteFailed(DeviceAddress, operation: String, error: String)
}

/// How a batch ended.
public struct BatchSummary: Sendable {
    public var devices: Int
    public var succeeded: Int
    public var failed: Int
    public var skipped: Int
    public var attempts: Int
    /// Simulated seconds on `sim:` (the busiest concurrency slot), else wall-clock seconds.
    public var seconds: Double
    public var stoppedEarly: Bool
    /// Why the ledger counts as unreachable, when it stopped the batch.
    public var ledgerFailure: String?
    /// Attempts whose record the ledger never confirmed (it stayed unreachable). Such a record
    /// may still be in the ledger, if only its answer was lost.
    public var unconfirmedRecords: Int
    /// Devices whose claim this station lost while working on them (their attempt was stopped).
    public var claimsLost: Int
}
