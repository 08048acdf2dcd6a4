import DFUGATT
import DFUBytes

/// What a scan heard from one device: its advertising data merged with its scan response.
public struct HCIAdvertisement: Sendable, Hashable {
    /// The advertiser's address as reported (most significant byte first when printed).
    public var address: DeviceAddress
    /// Needed to connect (LE Create Connection's Peer_Address_Type).
    public var addressType: HCIAddressType
    /// Whether its latest advertisement accepts connections (ADV_IND, ADV_DIRECT_IND or
    /// connectable extended advertising); only connectable devices are offered to the engine.
    public var isConnectable: Bool
    /// The data of its latest advertisement.
    public var advertisingData: AdvertisingData
    /// The data of its latest scan response (active scanning), nil when none was heard.
    public var scanResponseData: AdvertisingData?
    /// The latest RSSI, dBm.
    public var rssi: Int

    /// A device heard with these values; `rssi` in dBm (127 when the controller cannot tell).
    public init(address: DeviceAddress, addressType: HCIAddressType, isConnectable: Bool,
                advertisingData: AdvertisingData, scanResponseData: AdvertisingData? = nil, rssi: Int) {
        self.address = address
        self.addressType = addressType
        self.isConnectable = isConnectable
        self.advertisingData = advertisingData
        self.scanResponseData = scanResponseData
        self.rssi = rssi
    }

    /// The device's local name: from the advertisement, else from the scan response (complete
    /// name before shortened in each); nil when neither carries one.
    public var name: String? { advertisingData.localName ?? scanResponseData?.localName }

    /// As the GATT layer sees it.
    public var advertisement: Advertisement {
        // Each once, in order: the scan response (or, from BlueZ, data holding both) often
        // repeats the advertisement's.
        var uuids: [BluetoothUUID] = []
        for uuid in advertisingData.serviceUUIDs + (scanResponseData?.serviceUUIDs ?? []) where !uuids.contains(uuid) {
            uuids.append(uuid)
        }
        var manufacturerData: [ManufacturerData] = []
        for item in advertisingData.manufacturerData + (scanResponseData?.manufacturerData ?? [])
        where !manufacturerData.contains(item) {
            manufacturerData.append(item)
        }
        return Advertisement(address: address, name: name, serviceUUIDs: uuids, rssi: rssi,
                             manufacturerData: manufacturerData)
    }

    /// Merges one report into what is known of the device.
    mutating func merge(data: [UInt8], isScanResponse: Bool, isConnectable: Bool, rssi: Int) {
        if isScanResponse {
            scanResponseData = AdvertisingData(bytes: data)
        } else {
            advertisingData = AdvertisingData(bytes: data)
            self.isConnectable = isConnectable
        }
        if rssi != 127 { self.rssi = rssi }
    }
}
