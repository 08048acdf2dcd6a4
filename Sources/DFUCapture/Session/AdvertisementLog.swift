import DFUGATT
import DFUHCI

/// The advertisements heard in a capture, by advertiser: the latest advertising data and scan
/// response of each, to give a connection the advertisement of its peer.
struct AdvertisementLog: Sendable {
    private var heard: [DeviceAddress: HCIAdvertisement] = [:]

    /// Records one advertising PDU or report; `rssi` in dBm, 127 when unknown.
    mutating func record(address: DeviceAddress, data: [UInt8], isScanResponse: Bool, isConnectable: Bool, rssi: Int) {
        var advertisement = heard[address]
            ?? HCIAdvertisement(address: address, addressType: .publicDevice, isConnectable: isConnectable,
                                advertisingData: AdvertisingData(bytes: []), rssi: 127)
        if isScanResponse {
            advertisement.scanResponseData = AdvertisingData(bytes: data)
        } else {
            advertisement.advertisingData = AdvertisingData(bytes: data)
            advertisement.isConnectable = isConnectable
        }
        if rssi != 127 { advertisement.rssi = rssi }
        heard[address] = advertisement
    }

    /// What was heard from `address` before now, as the GATT layer sees it.
    func advertisement(of address: DeviceAddress) -> Advertisement? { heard[address]?.advertisement }
}
