import DFUGATT
import DFUProfile

/// A command that reboots the device went out: until the device is back, talking to it could
/// reach it before it rebooted (Zephyr keeps running 250 ms after answering `reset`).
struct PendingReboot: Equatable {
    /// The command, for messages.
    var command: String
    var timing: RebootTiming
    /// Where the device comes back after the reboot (`reboots: { address: next }`).
    var comesBackAt: ReconnectStep.Address
    /// The transport clock when its first write went out.
    var sentAt: Duration
}
