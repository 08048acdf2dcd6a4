import DFUGATT

/// How an `HCIHost` drives its controller. The defaults suit real controllers and Bumble.
package struct HCIHostConfiguration: Sendable {
    /// How long a command may wait for its Command Complete / Command Status.
    package var commandTimeout: Duration = .seconds(3)
    /// How long an optional command (LE Set Data Length, LE Set PHY) may wait before it counts
    /// as unsupported. Bumble's controller never answers LE Set PHY.
    package var optionalCommandTimeout: Duration = .seconds(2)
    /// How long Disconnection Complete may take after Disconnect.
    package var disconnectTimeout: Duration = .seconds(3)
    /// How long LE Connection Update Complete may take.
    package var connectionUpdateTimeout: Duration = .seconds(5)
    /// How long a sender waits for the controller to free an ACL buffer before giving up.
    package var creditTimeout: Duration = .seconds(10)
    /// The random static own address; nil makes a fresh one per host.
    package var randomAddress: DeviceAddress?
    /// Ask for 251-byte link-layer payloads when the controller has the feature.
    package var requestDataLength = true
    /// Ask for the 2M PHY when the controller has the feature.
    package var request2MPHY = true
    /// Parameters of new connections (30-50 ms interval, 2 s supervision timeout).
    package var connectionParameters = HCIConnectionParameters(intervalMin: 0x0018, intervalMax: 0x0028,
                                                              latency: 0, supervisionTimeout: 0x00C8)
    /// Scan interval and window, 0.625 ms units.
    package var scanInterval: UInt16 = 0x0060
    package var scanWindow: UInt16 = 0x0030
    /// Accept a peripheral's L2CAP Connection Parameter Update Request when its values are valid.
    package var acceptConnectionParameterUpdates = true

    package init() {}

    /// A random static address (Core spec Vol 6, Part B, 1.3.2.1): the two top bits set, the rest
    /// random and neither all zeros nor all ones.
    package static func makeRandomStaticAddress() -> DeviceAddress {
        while true {
            var generator = SystemRandomNumberGenerator()
            let value = generator.next() & 0x3FFF_FFFF_FFFF
            guard value != 0, value != 0x3FFF_FFFF_FFFF else { continue }
            return DeviceAddress(value: value | 0xC000_0000_0000)
        }
    }
}
