import DFUGATT
import DFUProfile

/// What a device session does before its next operation (a command, the installed-version
/// probe, the flash procedure, a post-flash check): a pure decision over what the session knows,
/// so that a batch attempt connects once where the protocol allows it and never talks to a
/// device before a reboot it was told to do has happened.
enum LinkReuse: Equatable {
    /// No device chosen yet: find it (the requested address, or a scan) and connect.
    case connectFirst
    /// The link is up and the device was not told to reboot since: use it as it is.
    case reuse
    /// The link dropped (the device ended it, or the stack lost it): connect again where the
    /// session last was.
    case reconnect(to: DeviceAddress)
    /// The last procedure ended after a command that reboots the device, with no `reconnect`
    /// step after it: wait for the reboot (the link to drop, up to the grace time; then the
    /// device to advertise again where the reboot brings it), then connect there; `fallback` is
    /// where the update started, tried when the device is not found where the reboot brings it
    /// (Nordic's bootloader on address + 1 resets into an application on the address before).
    case awaitReboot(PendingReboot, target: DeviceAddress, fallback: DeviceAddress?)

    /// The decision, from where the session is (`address`: nil before the first connection), the
    /// address it started at, a reboot still due, and whether the current link is up.
    static func decide(address: DeviceAddress?, origin: DeviceAddress?, pendingReboot: PendingReboot?,
                       linkIsUp: Bool) -> LinkReuse {
        guard let address else { return .connectFirst }
        if let reboot = pendingReboot {
            let target = reboot.comesBackAt == .next ? address.adding(1) : address
            return .awaitReboot(reboot, target: target, fallback: origin.flatMap { $0 == target ? nil : $0 })
        }
        return linkIsUp ? .reuse : .reconnect(to: address)
    }
}
