import DFUGATT

/// `struct sockaddr_l2` (14 bytes): l2_family, l2_psm, l2_bdaddr (least significant byte
/// first, the reverse of how addresses are written), l2_cid, l2_bdaddr_type, one byte of padding.
package struct L2CAPSocketAddress: Sendable, Hashable {
    package var address: DeviceAddress
    package var psm: UInt16
    package var channelID: UInt16
    /// BDADDR_LE_PUBLIC (1) or BDADDR_LE_RANDOM (2).
    package var addressType: UInt8

    package init(address: DeviceAddress, psm: UInt16 = 0, channelID: UInt16 = BlueZConstants.attChannelID,
                addressType: UInt8) {
        self.address = address
        self.psm = psm
        self.channelID = channelID
        self.addressType = addressType
    }

    package static let size = 14

    package var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: littleEndian(UInt16(BlueZConstants.addressFamily)))
        bytes.append(contentsOf: littleEndian(psm))
        bytes.append(contentsOf: address.bytes.reversed())
        bytes.append(contentsOf: littleEndian(channelID))
        bytes.append(addressType)
        bytes.append(0)
        return bytes
    }
}

/// `struct sockaddr_hci` (6 bytes): hci_family, hci_dev, hci_channel.
package struct HCISocketAddress: Sendable, Hashable {
    package var index: UInt16
    package var channel: UInt16

    package init(index: UInt16, channel: UInt16 = BlueZConstants.hciChannelRaw) {
        self.index = index
        self.channel = channel
    }

    package var bytes: [UInt8] {
        littleEndian(UInt16(BlueZConstants.addressFamily)) + littleEndian(index) + littleEndian(channel)
    }
}

/// `struct bt_security`: level, key_size (0: the kernel's default).
func securityOptionBytes(level: UInt8) -> [UInt8] { [level, 0] }

func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
