import DFUGATT
import DFUHCI

/// What a scan heard, one entry per address: advertising data merged with scan responses, and
/// each address's type (needed to connect).
public struct BlueZScanResults: Sendable, Hashable {
    public private(set) var devices: [DeviceAddress: HCIAdvertisement] = [:]
    /// Addresses in the order first heard.
    public private(set) var order: [DeviceAddress] = []
    /// Event packets that were not LE Advertising Reports, or did not decode.
    public private(set) var ignoredPacketCount = 0

    public init() {}

    /// The connectable devices, in the order first heard.
    public var advertisements: [Advertisement] {
        order.compactMap { devices[$0] }.filter(\.isConnectable).map(\.advertisement)
    }

    /// One packet read from a raw HCI socket: packet type 0x04 (event), LE Meta (0x3E),
    /// subevent LE Advertising Report (0x02).
    public mutating func add(hciPacket packet: [UInt8]) {
        guard packet.count >= 4, packet[0] == 0x04, packet[1] == 0x3E, Int(packet[2]) == packet.count - 3,
              packet[3] == LEAdvertisingReportEvent.subeventCode,
              let event = try? LEAdvertisingReportEvent(parameters: Array(packet[4...])) else {
            ignoredPacketCount += 1
            return
        }
        for report in event.reports { add(report) }
    }

    public mutating func add(_ report: LEAdvertisingReportEvent.Report) {
        let isScanResponse = report.eventType == .scanResponse
        let data = AdvertisingData(bytes: report.data)
        let rssi = Int(report.rssi)
        if var known = devices[report.address] {
            if isScanResponse {
                known.scanResponseData = data
            } else {
                known.advertisingData = data
                known.isConnectable = report.eventType.isConnectable
                known.addressType = report.addressType
            }
            if rssi != 127 { known.rssi = rssi }
            devices[report.address] = known
        } else {
            order.append(report.address)
            devices[report.address] = HCIAdvertisement(
                address: report.address, addressType: report.addressType,
                isConnectable: isScanResponse || report.eventType.isConnectable,
                advertisingData: isScanResponse ? AdvertisingData(structures: []) : data,
                scanResponseData: isScanResponse ? data : nil, rssi: rssi)
        }
    }

    /// The socket address type of a heard device.
    public func addressType(of address: DeviceAddress) -> BlueZPeerAddressType? {
        devices[address].map { BlueZPeerAddressType(hciAddressType: $0.addressType) }
    }

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
