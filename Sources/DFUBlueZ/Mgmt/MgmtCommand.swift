import DFUGATT

/// A command on the kernel's Bluetooth management channel (HCI_CHANNEL_CONTROL), as BlueZ's
/// doc/mgmt-api.txt lays it out: Command Code, Controller Index, Parameter Length (each u16,
/// little-endian), then the parameters.
///
/// DFUKit scans through management discovery rather than raw HCI scan commands, so the kernel
/// keeps control of the controller's scan state: a raw LE Set Scan Enable behind its back
/// stops the background scan the kernel runs for its own pending connections.
package struct MgmtCommand: Sendable, Hashable {
    package var code: UInt16
    /// The adapter (hciN's N), or `MgmtCommand.noController`.
    package var index: UInt16
    package var parameters: [UInt8]

    package static let noController: UInt16 = 0xFFFF

    package init(code: UInt16, index: UInt16, parameters: [UInt8] = []) {
        self.code = code
        self.index = index
        self.parameters = parameters
    }

    package var bytes: [UInt8] {
        littleEndian(code) + littleEndian(index) + littleEndian(UInt16(parameters.count)) + parameters
    }

    package static let startDiscoveryCode: UInt16 = 0x0023
    package static let stopDiscoveryCode: UInt16 = 0x0024

    /// Start Discovery (0x0023) for the given address types.
    package static func startDiscovery(index: UInt16, addressTypes: MgmtAddressTypes = .le) -> MgmtCommand {
        MgmtCommand(code: startDiscoveryCode, index: index, parameters: [addressTypes.rawValue])
    }

    package static let userConfirmReplyCode: UInt16 = 0x001C
    package static let userConfirmNegativeReplyCode: UInt16 = 0x001D

    /// User Confirmation Reply (0x001C): accept the pairing with `address` (Address, LSB first,
    /// and Address_Type: 1 LE public, 2 LE random).
    package static func userConfirmReply(index: UInt16, address: DeviceAddress, addressType: UInt8,
                                        accept: Bool = true) -> MgmtCommand {
        MgmtCommand(code: accept ? userConfirmReplyCode : userConfirmNegativeReplyCode, index: index,
                    parameters: address.bytes.reversed() + [addressType])
    }

    /// Stop Discovery (0x0024): the address types must be those discovery was started with.
    package static func stopDiscovery(index: UInt16, addressTypes: MgmtAddressTypes = .le) -> MgmtCommand {
        MgmtCommand(code: stopDiscoveryCode, index: index, parameters: [addressTypes.rawValue])
    }
}

/// The Address_Type bit mask of the discovery commands: bit 0 BR/EDR, 1 LE public, 2 LE random.
package struct MgmtAddressTypes: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let brEDR = MgmtAddressTypes(rawValue: 1 << 0)
    package static let lePublic = MgmtAddressTypes(rawValue: 1 << 1)
    package static let leRandom = MgmtAddressTypes(rawValue: 1 << 2)
    package static let le: MgmtAddressTypes = [.lePublic, .leRandom]
}
