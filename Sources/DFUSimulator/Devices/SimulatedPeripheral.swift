import DFUGATT

/// The device side of a simulated link: a GATT server with its protocol logic. Its state
/// (a half-received image, say) outlives a connection, as a real device's RAM or flash would.
///
/// `advertisement` and `services` may change when the device reboots (an application that
/// resets into its bootloader, which may advertise on another address): the world scans and
/// connects by the current advertisement, and a link keeps the address it connected to.
public protocol SimulatedPeripheral: AnyObject {
    var advertisement: Advertisement { get }
    var services: [GATTService] { get }

    func connectionStarted(mtu: Int, at time: Duration)
    /// The link dropped; whatever was in flight is lost.
    func connectionEnded(at time: Duration)
    /// A write request or command arrived at `time`. Returns what the device sends back
    /// (beyond the write response, which the link produces).
    func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput]
    /// The value of a readable attribute, or nil when the handle cannot be read.
    func readValue(handle: UInt16) -> [UInt8]?
}
