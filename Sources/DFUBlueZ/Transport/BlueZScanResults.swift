import DFUGATT
import DFUHCI

/// What a scan heard, one entry per address: advertising data merged with scan responses, and
/// each address's type (needed to connect), from management Device Found events.
public struct BlueZScanResults: Sendable, Hashable {
    /// What was heard from each address: advertising data merged with scan responses.
    public private(set) var devices: [DeviceAddress: HCIAdvertisement] = [:]
    /// Addresses in the order first heard.
    public private(set) var order: [DeviceAddress] = []
    /// Event packets that were not LE Advertising Reports, or did not decode.
    package private(set) var ignoredPacketCount = 0

    /// Nothing heard yet.
    public init() {}

    /// The connectable devices, in the order first heard.
    public var advertisements: [Advertisement] {
        order.compactMap { devices[$0] }.filter(\.isConnectable).map(\.advertisement)
    }

    /// One packet read from the management channel: Device Found events for adapter `index`
    /// (LE addresses only) are added; anything else is counted as ignored.
    package mutating func add(mgmtPacket packet: [UInt8], index: UInt16) {
        guard case let .deviceFound(eventIndex, found)? = MgmtEvent(bytes: packet), eventIndex == index,
              found.addressType == BlueZConstants.addressTypeLEPublic
                || found.addressType == BlueZConstants.addressTypeLERandom else {
            ignoredPacketCount += 1
            return
        }
        add(found)
    }

    /// A Device Found event: its data holds the advertising data and scan response together.
    package mutating func add(_ found: MgmtDeviceFound) {
        let type: HCIAddressType = found.addressType == BlueZConstants.addressTypeLEPublic ? .publicDevice : .randomDevice
        if devices[found.address] == nil { order.append(found.address) }
        var known = devices[found.address]
            ?? HCIAdvertisement(address: found.address, addressType: type, isConnectable: found.isConnectable,
                                advertisingData: AdvertisingData(structures: []), rssi: Int(found.rssi))
        let data = AdvertisingData(bytes: found.data)
        // A later event without a name (an advertisement whose scan response did not arrive)
        // keeps the name heard before.
        if !found.data.isEmpty && (data.localName != nil || known.name == nil) { known.advertisingData = data }
        known.addressType = type
        known.isConnectable = found.isConnectable
        if found.rssi != 127 { known.rssi = Int(found.rssi) }
        devices[found.address] = known
    }

    /// The socket address type of a heard device.
    package func addressType(of address: DeviceAddress) -> BlueZPeerAddressType? {
        devices[address].map { BlueZPeerAddressType(hciAddressType: $0.addressType) }
    }

    /// Adds what `other` heard: new addresses after the known ones, data of known ones merged.
    public mutating func merge(_ other: BlueZScanResults) {
        for address in other.order {
            if devices[address] == nil { order.append(address) }
            devices[address] = other.devices[address]
        }
    }
}

extension BlueZPeerAddressType {
    /// Public (and public identity) addresses are LE public; the rest are random.
    public init(hciAddressType: HCIAddressType) {
        switch hciAddressType {
        case .publicDevice, .publicIdentity: self = .lePublic
        default: self = .leRandom
        }
    }
}
