import DFUGATT

/// The device side of a simulated link: a GATT server with its protocol logic. Its state
/// (a half-received image, say) outlives a connection, as a real device's RAM or flash would.
///
/// `advertisement` and `services` may change when the device reboots (an application that
/// resets into its bootloader, which may advertise on another address): the world scans and
/// connects by the current advertisement, and a link keeps the address it connected to.
///
/// Time: a device reacts to writes, and may also have timers of its own (a reset that comes
/// 250 ms after its answer, a boot that ends after a swap). The world runs them in time order
/// wherever its clock moves (`nextTimer`, `fireTimers(at:)`): in a link's event loop, while
/// scanning, connecting or waiting for an advertisement. A device is connectable only while
/// `isAdvertising(at:)`. Devices that need none of this keep the defaults: no timers, always
/// advertising, no reaction to a power glitch.
public protocol SimulatedPeripheral: AnyObject {
    /// What the device advertises now: its address, name and services.
    var advertisement: Advertisement { get }
    /// Its GATT database now: what discovery finds.
    var services: [GATTService] { get }

    /// A central connected at `time` and the ATT_MTU `mtu` was agreed.
    func connectionStarted(mtu: Int, at time: Duration)
    /// The link dropped; whatever was in flight is lost. Not called for a link the device
    /// ended itself by resetting (`PeripheralEvent.reset`, `powerCycle(at:)`).
    func connectionEnded(at time: Duration)
    /// A write request or command arrived at `time`. Returns what the device sends back
    /// (beyond the write response, which the link produces).
    func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput]
    /// The value of a readable attribute, or nil when the handle cannot be read.
    func readValue(handle: UInt16) -> [UInt8]?

    /// Whether the device advertises (and so accepts a connection) at `time`. The world has
    /// fired every timer due by then. False while it reboots, swaps images or boots.
    func isAdvertising(at time: Duration) -> Bool
    /// When the device's earliest pending timer is due, or nil when none is pending.
    var nextTimer: Duration? { get }
    /// Runs the timers due at `time` (the world calls this when its clock reaches `nextTimer`).
    /// Returns what a link to the device must know, e.g. that it reset.
    func fireTimers(at time: Duration) -> [PeripheralEvent]
    /// The device resets as on a power glitch at `time` (the `reboot-after` fault): RAM is
    /// lost, flash is kept, then it boots and advertises again. Its link, if any, is dropped by
    /// the caller.
    func powerCycle(at time: Duration)
    /// A new world, whose clock starts elsewhere, adopts the device (a fleet's next attempt):
    /// every time the device holds (timers, the end of flash work) moves by `offset`, so that
    /// no time passes for the device between the two worlds.
    func shiftClock(by offset: Duration)
}

extension SimulatedPeripheral {
    public func isAdvertising(at time: Duration) -> Bool { true }
    public var nextTimer: Duration? { nil }
    public func fireTimers(at time: Duration) -> [PeripheralEvent] { [] }
    public func powerCycle(at time: Duration) {}
    public func shiftClock(by offset: Duration) {}
}

/// Something a device's timer did that concerns its link.
public enum PeripheralEvent: Sendable, Equatable {
    /// The device reset: a link to it drops at once, with this reason.
    case reset(reason: String)
}
