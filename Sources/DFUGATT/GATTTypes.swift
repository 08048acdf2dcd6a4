import DFUBytes

/// Characteristic properties as declared in the characteristic declaration (Core spec Vol 3,
/// Part G, 3.3.1.1).
public struct GATTProperties: OptionSet, Sendable, Hashable {
    /// The properties byte of the characteristic declaration.
    public let rawValue: UInt8
    /// The properties of a characteristic declaration's properties byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The value may be broadcast in advertising data (0x01).
    public static let broadcast = GATTProperties(rawValue: 0x01)
    /// The value can be read (0x02).
    public static let read = GATTProperties(rawValue: 0x02)
    /// The value can be written without response (0x04): the peer does not acknowledge each write.
    public static let writeWithoutResponse = GATTProperties(rawValue: 0x04)
    /// The value can be written with response (0x08): each write is acknowledged.
    public static let write = GATTProperties(rawValue: 0x08)
    /// The peer can notify the value (0x10).
    public static let notify = GATTProperties(rawValue: 0x10)
    /// The peer can indicate the value (0x20): each indication is confirmed.
    public static let indicate = GATTProperties(rawValue: 0x20)

    /// "read, write, notify".
    public var names: [String] {
        let all: [(GATTProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// A discovered characteristic: enough to read, write and subscribe to it.
public struct GATTCharacteristic: Sendable, Hashable {
    /// The UUID of the service the characteristic belongs to.
    public var service: BluetoothUUID
    /// The characteristic's UUID.
    public var uuid: BluetoothUUID
    /// The ATT handle of its value: what reads, writes and notifications address.
    public var valueHandle: UInt16
    /// What can be done with it: read, write, notify...
    public var properties: GATTProperties

    /// A characteristic of `service` with its value at `valueHandle`.
    public init(service: BluetoothUUID, uuid: BluetoothUUID, valueHandle: UInt16, properties: GATTProperties) {
        self.service = service
        self.uuid = uuid
        self.valueHandle = valueHandle
        self.properties = properties
    }
}

/// A discovered primary service and its characteristics.
public struct GATTService: Sendable, Hashable {
    /// The service's UUID.
    public var uuid: BluetoothUUID
    /// Its characteristics, in handle order.
    public var characteristics: [GATTCharacteristic]

    /// A service with `characteristics`.
    public init(uuid: BluetoothUUID, characteristics: [GATTCharacteristic]) {
        self.uuid = uuid
        self.characteristics = characteristics
    }
}

/// How a value is written: acknowledged by the peer or not. The raw value is the spelling
/// profiles and `--write` use.
public enum GATTWriteType: String, Sendable, Hashable {
    /// ATT Write Request: the peer answers each write, so the next waits for it.
    case withResponse = "with-response"
    /// ATT Write Command: no answer; as many as the link's buffers take, the fastest way to send.
    case withoutResponse = "without-response"
}

/// A value notified (or indicated) by the peer, stamped with the link clock.
public struct GATTNotification: Sendable, Hashable {
    /// The handle of the value that changed.
    public var valueHandle: UInt16
    /// The new value, as the peer sent it.
    public var value: [UInt8]
    /// When it arrived, on the link clock.
    public var receivedAt: Duration

    /// A notification of `value` for `valueHandle`, received at `receivedAt` (link clock).
    public init(valueHandle: UInt16, value: [UInt8], receivedAt: Duration) {
        self.valueHandle = valueHandle
        self.value = value
        self.receivedAt = receivedAt
    }
}

/// What a scan saw of one advertising device.
public struct Advertisement: Sendable, Hashable {
    /// The advertiser's address.
    public var address: DeviceAddress
    /// The local name it advertised, if any.
    public var name: String?
    /// The service UUIDs it advertised (complete or incomplete lists).
    public var serviceUUIDs: [BluetoothUUID]
    /// The received signal strength in dBm (e.g. -60; closer to 0 is stronger).
    public var rssi: Int
    /// The manufacturer specific data it advertised (AD type 0xFF), in order.
    public var manufacturerData: [ManufacturerData]

    /// An advertisement heard from `address`.
    public init(address: DeviceAddress, name: String?, serviceUUIDs: [BluetoothUUID], rssi: Int,
                manufacturerData: [ManufacturerData] = []) {
        self.address = address
        self.name = name
        self.serviceUUIDs = serviceUUIDs
        self.rssi = rssi
        self.manufacturerData = manufacturerData
    }
}

/// One Manufacturer Specific Data structure (AD type 0xFF; Core Specification Supplement,
/// Part A, 1.4): a company identifier, then data the company defines.
public struct ManufacturerData: Sendable, Hashable {
    /// The Bluetooth SIG company identifier (sent first, little-endian).
    public var companyID: UInt16
    /// The bytes after the company identifier.
    public var data: [UInt8]

    /// Data `data` from `companyID`.
    public init(companyID: UInt16, data: [UInt8]) {
        self.companyID = companyID
        self.data = data
    }
}
