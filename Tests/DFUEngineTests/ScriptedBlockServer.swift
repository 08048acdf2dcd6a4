import DFUBytes
import DFUGATT

/// A device that drives its own transfer, written as a script on a virtual clock, for testing
/// `serve`, `read`, `write-interval` and indications end to end without the simulators.
///
/// Characteristics: control (write, notify, indicate; value handle 3), blocks (write without
/// response; 6), revision (read; 9, service 180A). `01 <size u32>` starts; the device asks for
/// blocks of `blockSize` bytes by indicating `81 <number u16>` in `order` (a number may repeat),
/// each block arriving as `<number u16> <bytes>` on blocks; when every block is in, it
/// indicates `82 00`. Reading revision gives "2.0.0" and a NUL.
final class ScriptedBlockServer: GATTTransport, GATTLink {
    let name = "scripted-blocks"
    let address = DeviceAddress(string: "C0:FF:EE:00:00:0B")!
    var now: Duration = .zero
    let blockSize: Int
    let order: [Int]
    private(set) var received: [Int: [UInt8]] = [:]
    private(set) var imageSize = 0
    /// Link times of the writes to blocks, and the kind of value updates subscribed to.
    private(set) var blockWriteTimes: [Duration] = []
    private(set) var subscription: GATTValueUpdates?
    private var asked = 0
    private var inbox: [[UInt8]] = []

    static let service = BluetoothUUID(uuid16: 0xFEED)
    static let information = BluetoothUUID(uuid16: 0x180A)
    static let control = GATTCharacteristic(service: service, uuid: BluetoothUUID(uuid16: 0xF001), valueHandle: 3,
                                            properties: [.write, .notify, .indicate])
    static let blocks = GATTCharacteristic(service: service, uuid: BluetoothUUID(uuid16: 0xF002), valueHandle: 6,
                                           properties: [.writeWithoutResponse])
    static let revision = GATTCharacteristic(service: information, uuid: BluetoothUUID(uuid16: 0x2A26), valueHandle: 9,
                                             properties: [.read])

    init(blockSize: Int, order: [Int]) {
        self.blockSize = blockSize
        self.order = order
    }

    /// The image as the device assembled it from the blocks it kept.
    var image: [UInt8] { received.keys.sorted().flatMap { received[$0] ?? [] } }

    // MARK: - GATTTransport

    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] { [] }
    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? { nil }
    func sleep(until deadline: Duration) async { now = max(now, deadline) }
    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink { self }

    // MARK: - GATTLink

    var mtu: Int { 23 }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        [GATTService(uuid: Self.service, characteristics: [Self.control, Self.blocks]),
         GATTService(uuid: Self.information, characteristics: [Self.revision])]
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        now += .milliseconds(30)
        guard characteristic.valueHandle == Self.revision.valueHandle else {
            throw GATTError(.attError(code: 0x02, handle: characteristic.valueHandle), detail: "Read Not Permitted")
        }
        return Array("2.0.0".utf8) + [0]
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        now += .milliseconds(1)
        switch characteristic.valueHandle {
        case Self.control.valueHandle where value.first == 0x01 && value.count == 5:
            imageSize = Int(value[1]) | Int(value[2]) << 8 | Int(value[3]) << 16 | Int(value[4]) << 24
            askNext()
        case Self.blocks.valueHandle where value.count >= 2:
            blockWriteTimes.append(now)
            received[Int(value[0]) | Int(value[1]) << 8] = Array(value[2...])
            askNext()
        default:
            break
        }
    }

    private func askNext() {
        let blocks = (imageSize + blockSize - 1) / blockSize
        if asked < order.count {
            let number = order[asked]
            asked += 1
            inbox.append([0x81, UInt8(number & 0xFF), UInt8(number >> 8)])
        } else if received.count == blocks {
            inbox.append([0x82, 0x00])
        }
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        subscription = kind
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        guard !inbox.isEmpty else {
            now = max(now, deadline)
            return nil
        }
        now += .milliseconds(15)
        return GATTNotification(valueHandle: Self.control.valueHandle, value: inbox.removeFirst(), receivedAt: now)
    }

    func disconnect() async {}
}
