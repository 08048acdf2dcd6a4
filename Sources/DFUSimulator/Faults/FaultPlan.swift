/// Faults a simulated world injects. Counts are 1-based and cumulative over the whole run
/// (across reconnections). Link faults (bytes, notifications, unresponsiveness, power glitches)
/// are applied by the link whatever the device; command faults (`busyCommands`,
/// `commandDisconnects`) are applied by the device, which knows its commands.
public struct FaultPlan: Sendable, Equatable {
    /// Drop the link once the device has received this many written value bytes (each fires once).
    package var disconnectAfterBytes: [Int] = []
    /// Lose these notifications (by count of notifications the device sent).
    package var dropNotifications: Set<Int> = []
    /// Flip the bits of the last byte of these notifications.
    package var corruptNotifications: Set<Int> = []
    /// Deliver these notifications twice in a row.
    package var duplicateNotifications: Set<Int> = []
    /// Hold these notifications back until the one that follows has arrived; one the link
    /// loses before another follows is lost.
    package var reorderNotifications: Set<Int> = []
    /// Lose these writes without response (by count of writes without response the central
    /// sent): the device never sees them, as when a sender's stack drops a write its queue has
    /// no room for (iOS before 11 did).
    package var dropWrites: Set<Int> = []
    /// Flip the bits of the last byte of these writes without response (same count) on their way.
    package var corruptWrites: Set<Int> = []
    /// Answer these commands (by count of commands the device processed) with "busy".
    package var busyCommands: Set<Int> = []
    /// Stop answering anything once this many value bytes have been received.
    package var unresponsiveAfterBytes: Int?
    /// The device resets as on a power glitch once it has received this many written value
    /// bytes (each fires once): RAM is lost, flash kept; it boots and advertises again.
    package var rebootAfterBytes: [Int] = []
    /// Drop the link on the N-th request of a named command, before or after the device
    /// processes it.
    package var commandDisconnects: [CommandDisconnect] = []

    /// No faults.
    public init() {}

    /// True when no fault is planned.
    public var isEmpty: Bool { self == FaultPlan() }
}
