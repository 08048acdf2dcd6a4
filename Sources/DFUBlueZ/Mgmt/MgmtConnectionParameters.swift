import DFUGATT

/// One entry of Load Connection Parameters (BlueZ doc/mgmt-api.txt, command 0x0035): the
/// interval range (1.25 ms units), latency and supervision timeout (10 ms units) the kernel
/// uses when it connects to `address`.
package struct MgmtConnectionParameters: Sendable, Hashable {
    /// The device these parameters apply to.
    package var address: DeviceAddress
    /// 1 LE public, 2 LE random.
    package var addressType: UInt8
    /// The shortest connection interval, 1.25 ms units (0x0006 = 7.5 ms ... 0x0C80 = 4 s).
    package var intervalMin: UInt16
    /// The longest connection interval, 1.25 ms units (at least `intervalMin`).
    package var intervalMax: UInt16
    /// Peripheral latency: connection events the peripheral may skip (0...0x01F3).
    package var latency: UInt16
    /// Supervision timeout, 10 ms units (0x000A = 100 ms ... 0x0C80 = 32 s).
    package var supervisionTimeout: UInt16

    /// An entry for `address`; the defaults ask for a 7.5-15 ms interval, no latency and a 2 s
    /// supervision timeout.
    package init(address: DeviceAddress, addressType: UInt8, intervalMin: UInt16 = 0x0006, intervalMax: UInt16 = 0x000C,
                latency: UInt16 = 0, supervisionTimeout: UInt16 = 0x00C8) {
        self.address = address
        self.addressType = addressType
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    /// Address (LSB first), Address_Type, Min_Connection_Interval, Max_Connection_Interval,
    /// Connection_Latency, Supervision_Timeout.
    package var bytes: [UInt8] {
        address.bytes.reversed() + [addressType] + littleEndian(intervalMin) + littleEndian(intervalMax)
            + littleEndian(latency) + littleEndian(supervisionTimeout)
    }

    /// What was asked, as a `LinkGrant` request.
    package var request: LinkGrant.Request {
        LinkGrant.Request(intervalMin: LinkGrant.microseconds(intervalUnits: intervalMin),
                          intervalMax: LinkGrant.microseconds(intervalUnits: intervalMax), latency: Int(latency),
                          supervisionTimeout: Int(supervisionTimeout) * 10)
    }
}

extension MgmtCommand {
    package static let loadConnectionParametersCode: UInt16 = 0x0035

    /// Load Connection Parameters (0x0035): Param_Count, then each entry. The kernel drops
    /// entries it finds invalid (with a log line) and answers success; before kernel 6.11 it also
    /// forgets the stored parameters of every device not connected or auto-connecting.
    package static func loadConnectionParameters(index: UInt16, _ entries: [MgmtConnectionParameters]) -> MgmtCommand {
        MgmtCommand(code: loadConnectionParametersCode, index: index,
                    parameters: littleEndian(UInt16(entries.count)) + entries.flatMap(\.bytes))
    }
}
