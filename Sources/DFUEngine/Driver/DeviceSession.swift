import DFUGATT
import DFUProfile

/// The connection to one device, kept across what is run on it in sequence: a command
/// (`CommandExecution`), the installed-version probe, the flash procedure (`FlashSession`) and
/// the post-flash checks. It connects once, discovers, binds the profile's characteristics and
/// subscribes; each operation then reuses that link while it is up and the device was not told
/// to reboot, and reconnects only when the link is gone, or after waiting for a reboot the last
/// procedure left due (`LinkReuse` decides which). A procedure's own `reconnect` steps and
/// resumes reconnect through the same session, so the next operation finds the link the
/// procedure ended on (Nordic's bootloader on address + 1, the application after a `reset`).
///
/// One task uses a session at a time; `close()` ends its link.
package final class DeviceSession {
    /// The profile the connection is bound with (its characteristics, `match`, `resume`, `reboot`).
    package let profile: Profile
    let options: FlashOptions
    let transport: any GATTTransport
    let requestedAddress: DeviceAddress?
    /// Gets each event of whatever runs on the session, as it happens.
    let onEvent: (FlashEvent) -> Void

    /// The current connection (replaced on reconnect).
    private(set) var link: (any GATTLink)?
    private(set) var bindings: ConnectionBindings?
    /// Where the session is connected (or was last): set once the device is chosen.
    var address: DeviceAddress?
    /// The address the session started at (the device may move: a bootloader on address + 1).
    var originAddress: DeviceAddress?
    /// What the stack granted the current connection.
    var linkGrant: LinkGrant?
    /// A command that reboots the device went out in the last procedure and no `reconnect`
    /// followed it: the next operation waits for the reboot before it talks to the device.
    var pendingReboot: PendingReboot?
    /// Whether the device was seen to reset before the current connection (it dropped the link
    /// after a rebooting command), kept the link instead, or was not told to reboot: what an
    /// `observe` step needs to say why the previous image still runs (`link.reboot`).
    var lastReboot = RunningImageEvidence.Reboot.none
    /// The next request sequence number (`sequence` in profiles), kept across operations.
    var sequence = 0
    /// Connections made so far (the first and every reconnection).
    package private(set) var connections = 0
    /// When the attempt began on the transport's clock: `FlashOptions.attemptTimeout` bounds
    /// everything run on the session from here (probe, update, checks).
    let attemptStartedAt: Duration

    /// A session with the device at `address`, or (nil) the first advertising device that
    /// matches `profile`; nothing happens until an operation runs on it.
    package init(profile: Profile, transport: any GATTTransport, address: DeviceAddress?,
                 options: FlashOptions = FlashOptions(), onEvent: @escaping (FlashEvent) -> Void = { _ in }) {
        self.profile = profile
        self.options = options
        self.transport = transport
        self.requestedAddress = address
        self.onEvent = onEvent
        self.attemptStartedAt = transport.now
    }

    /// A new connection replaces the current one.
    func adopt(link newLink: any GATTLink, bindings newBindings: ConnectionBindings, address target: DeviceAddress) {
        link = newLink
        bindings = newBindings
        address = target
        connections += 1
    }

    /// Ends the link, if there is one; the device is still known (a later operation connects again).
    package func close() async {
        if let link { await link.disconnect() }
        link = nil
        bindings = nil
    }
}
