import DFUBytes

/// Characteristic properties as declared in the characteristic declaration (Core spec Vol 3,
/// Part G, 3.3.1.1).
public struct GATTProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let broadcast = GATTProperties(rawValue: 0x01)
    public static let read = GATTProperties(rawValue: 0x02)
    public static let writeWithoutResponse = GATTProperties(rawValue: 0x04)
    public static let write = GATTProperties(rawValue: 0x08)
    public static let notify = GATTProperties(rawValue: 0x10)
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
    public var service: BluetoothUUID
    public var uuid: BluetoothUUID
    public var valueHandle: UInt16
    public var properties: GATTProperties

    public init(service: BluetoothUUID, uuid: BluetoothUUID, valueHandle: UInt16, properties: GATTProperties) {
        self.service = service
        self.uuid = uuid
        self.valueHandle = valueHandle
        self.properties = properties
    }
}

public struct GATTService: Sendable, Hashable {
    public var uuid: BluetoothUUID
    public var characteristics: [GATTCharacteristic]

    public init(uuid: BluetoothUUID, characteristics: [GATTCharacteristic]) {
        self.uuid = uuid
        self.characteristics = characteristics
    }
}

public enum GATTWriteType: String, Sendable, Hashable {
    case withResponse = "with-response"
    case withoutResponse = "without-response"
}

/// A value notified (or indicated) by the peer, stamped with the link clock.
public struct GATTNotification: Sendable, Hashable {
    public var valueHandle: UInt16
    public var value: [UInt8]
    public var receivedAt: Duration

    public init(valueHandle: UInt16, value: [UInt8], receivedAt: Duration) {
        self.valueHandle = valueHandle
        self.value = value
        self.receivedAt = receivedAt
    }
}

/// What a scan saw of one advertising device.
public struct Advertisement: Sendable, Hashable {
    public var address: DeviceAddress
    public var name: String?
    public var serviceUUIDs: [BluetoothUUID]
    public var rssi: Int

    public init(address: DeviceAddress, name: String?, serviceUUIDs: [BluetoothUUID], rssi: Int) {
        self.address = address
        self.name = name
        self.serviceUUIDs = serviceUUIDs
        self.rssi = rssi
    }
}
