import Foundation

/// A station's exclusive right to flash one device with one package, granted by `Ledger.claim`.
///
/// The claim lasts until `Ledger.recordAttempt` records a success (the device is then done with
/// the package for good), until `Ledger.release`, or until its lease runs out without a
/// `Ledger.heartbeat` (then another station may take the device over).
public struct Claim: Sendable, Hashable {
    /// A fresh UUID for this claim; every attempt made under it carries it as `Attempt.claimID`.
    public var id: String
    /// The device's address as the transport names it.
    public var device: String
    /// The package's SHA-256, lowercase hex.
    public var packageSHA256: String
    /// The station holding the claim.
    public var station: String
    package var claimedAt: Date
    /// Attempts recorded for this device and package before this claim (earlier runs, other
    /// stations), so attempt numbers go on counting: the next one is `previousAttempts + 1`.
    package var previousAttempts: Int

    /// A claim as the ledger stores it.
    public init(id: String, device: String, packageSHA256: String, station: String, claimedAt: Date,
                previousAttempts: Int) {
        self.id = id
        self.device = device
        self.packageSHA256 = packageSHA256
        self.station = station
        self.claimedAt = claimedAt
        self.previousAttempts = previousAttempts
    }

    /// The number to give the next attempt made under this claim, counting earlier ones.
    public var nextAttemptNumber: Int { previousAttempts + 1 }
}
