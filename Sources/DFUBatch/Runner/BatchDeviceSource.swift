import DFUEngine
import DFUGATT

/// Where a batch finds its devices and how it reaches each: a simulated fleet, or (later) an
/// HCI controller or BlueZ adapter holding several links.
public protocol BatchDeviceSource: Sendable {
    /// Simulated sources run each attempt on its own virtual clock; the runner then adds the
    /// times up per concurrency slot instead of reading the wall clock.
    var usesVirtualTime: Bool { get }
    func scan() async throws(FlashError) -> [Advertisement]
    /// A transport for one attempt (1-based) at one device, used only by the task that holds it.
    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport
}

/// What the runner needs from a ledger (`DFULedger` adapts to it).
///
/// Calls may throw anything: a `BatchLedgerError` of kind `claimLost` or `rejected` is final;
/// any other error is taken as the ledger being unreachable for now, and the call is retried
/// with back-off (see `LedgerRetryPolicy`). So every call must be safe to repeat: a retried
/// claim must not lock out its own station, a retried record must not add a second row.
public protocol BatchLedger: Sendable {
    /// Claims the device for this package; false when it is done already or claimed elsewhere.
    func claim(device: String) async throws -> Bool
    /// Extends the lease of the claim on the device; throws `BatchLedgerError.claimLost` when
    /// another station took it over or it is no longer active.
    func heartbeat(device: String) async throws
    func record(_ attempt: AttemptRecord) async throws
    /// Gives back a device that is not done, so a later run (or another station) may try it.
    func release(device: String) async throws
}

/// A ledger answer the runner must not retry.
public struct BatchLedgerError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The claim is no longer this station's (its lease ran out and another station took
        /// the device, or the device was marked done or released meanwhile).
        case claimLost
        /// The ledger refused the call itself (a bad argument): repeating it changes nothing.
        case rejected
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// One attempt at one device, as the ledger records it.
public struct AttemptRecord: Sendable {
    public enum Result: String, Sendable {
        case succeeded, failed, cancelled
    }

    public var device: String
    public var attempt: Int
    public var startedAt: Double
    public var endedAt: Double
    public var seconds: Double
    public var bytes: Int
    public var result: Result
    public var errorKind: String?
    public var errorMessage: String?
}
