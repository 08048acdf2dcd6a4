/// Faults a simulated world injects. Counts are 1-based and cumulative over the whole run
/// (across reconnections). Link faults (bytes, notifications, unresponsiveness, power glitches)
/// are applied by the link whatever the device; command faults (`busyCommands`,
/// `commandDisconnects`) are applied by the device, which knows its commands.
public struct FaultPlan: Sendable, Equatable {
    /// Drop the link once the device has received this many written value bytes (each fires once).
    public var disconnectAfterBytes: [Int] = []
    /// Lose these notifications (by count of notifications the device sent).
    public var dropNotifications: Set<Int> = []
    /// Flip the bits of the last byte of these notifications.
    public var corruptNotifications: Set<Int> = []
    /// Deliver these notifications twice in a row.
    public var duplicateNotifications: Set<Int> = []
    /// Hold these notifications back until the one that follows has arrived; one the link
    /// loses before another follows is lost.
    public var reorderNotifications: Set<Int> = []
    /// Lose these writes without response (by count of writes without response the central
    /// sent): the device never sees them, as when a sender's stack drops a write its queue has
    /// no room for (iOS before 11 did).
    public var dropWrites: Set<Int> = []
    /// Flip the bits of the last byte of these writes without response (same count) on their way.
    public var corruptWrites: Set<Int> = []
    /// Answer these commands (by count of commands the device processed) with "busy".
    public var busyCommands: Set<Int> = []
    /// Stop answering anything once this many value bytes have been received.
    public var unresponsiveAfterBytes: Int?
    /// The device resets as on a power glitch once it has received this many written value
    /// bytes (each fires once): RAM is lost, flash kept; it boots and advertises again.
    public var rebootAfterBytes: [Int] = []
    /// Drop the link on the N-th request of a named command, before or after the device
    /// processes it.
    public var commandDisconnects: [CommandDisconnect] = []

    public init() {}

    public var isEmpty: Bool { self == FaultPlan() }
}
