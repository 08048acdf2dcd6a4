/// How long a device takes to reboot: how long it may keep the link after answering a command
/// that reboots it (Zephyr's os_mgmt answers `reset`, then reboots 250 ms later), and how long it
/// may then stay silent before it advertises again (MCUboot swapping a large image can take tens
/// of seconds). Profile-wide under `reboot:`, overridable per command or step.
public struct RebootTiming: Sendable, Equatable {
    /// How long to wait for the device to drop the link after a rebooting command was sent;
    /// after that the engine drops it itself.
    public var grace: Duration
    /// How long the device may take from dropping the link to advertising again.
    package var bootTimeout: Duration

    /// 2 s: how long a device may keep the link after answering a rebooting command.
    public static let defaultGrace: Duration = .seconds(2)
    /// 30 s: how long a rebooted device may stay silent before it advertises again.
    public static let defaultBootTimeout: Duration = .seconds(30)

    /// Timing with a `grace` to drop the link (default 2 s) and a `bootTimeout` to advertise again
    /// (default 30 s).
    public init(grace: Duration = RebootTiming.defaultGrace, bootTimeout: Duration = RebootTiming.defaultBootTimeout) {
        self.grace = grace
        self.bootTimeout = bootTimeout
    }
}

/// That a command reboots the device (`reboots: true`, or a mapping with `when` and timings): the
/// next `reconnect`, or a resume after a lost link, then waits for the device to go and come
/// back instead of talking to it before it rebooted.
public struct RebootSpec: Sendable {
    /// Reboots only when this holds in the sending step's scope (Nordic's Execute resets the
    /// device only for the last object); nil: always.
    public var when: Expression?
    /// Overrides the profile's `RebootTiming.grace` for this command.
    public var grace: Duration?
    package var bootTimeout: Duration?
    /// Where the device advertises after the reboot, for a resume after a lost link (a
    /// `reconnect` step names its own address): `next` for a Nordic application that reboots
    /// into its bootloader on address + 1.
    public var address: ReconnectStep.Address

    /// A reboot, always or `when` it holds, with the profile's timings unless given, back on the same
    /// address unless told otherwise.
    public init(when: Expression? = nil, grace: Duration? = nil, bootTimeout: Duration? = nil,
                address: ReconnectStep.Address = .same) {
        self.when = when
        self.grace = grace
        self.bootTimeout = bootTimeout
        self.address = address
    }

    /// The timing: this spec's values over the profile's.
    public func timing(over profile: RebootTiming) -> RebootTiming {
        RebootTiming(grace: grace ?? profile.grace, bootTimeout: bootTimeout ?? profile.bootTimeout)
    }
}
