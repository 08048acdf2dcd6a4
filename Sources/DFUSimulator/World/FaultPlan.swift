/// Faults a simulated world injects, independent of the device's protocol.
/// Counts are 1-based and cumulative over the whole run (across reconnections).
public struct FaultPlan: Sendable, Equatable {
    /// Drop the link once the device has received this many written value bytes (each fires once).
    public var disconnectAfterBytes: [Int] = []
    /// Lose these notifications (by count of notifications the device sent).
    public var dropNotifications: Set<Int> = []
    /// Flip the bits of the last byte of these notifications.
    public var corruptNotifications: Set<Int> = []
    /// Answer these commands (by count of commands the device processed) with "busy".
    public var busyCommands: Set<Int> = []
    /// Stop answering anything once this many value bytes have been received.
    public var unresponsiveAfterBytes: Int?

    public init() {}

    public var isEmpty: Bool { self == FaultPlan() }
}
