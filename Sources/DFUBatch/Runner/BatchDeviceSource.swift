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
public protocol BatchLedger: Sendable {
    /// Claims the device for this package, or nil when it is done already or claimed elsewhere.
    func claim(device: String) async throws -> Bool
    func record(_ attempt: AttemptRecord) async throws
    /// Gives back a device that failed, so a later run (or another station) may try it.
    func release(device: String) async
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
