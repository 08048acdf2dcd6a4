import DFUBytes
import DFUGATT

/// A test-only device whose frames carry an opcode, then a u16 little-endian payload length,
/// then the payload, then a CRC-16/CCITT-FALSE of all that (little-endian): the layout of a
/// framing with `length-offset: 1`, inserted, and a `crc16` trailer. It parses and builds frames
/// itself, byte by byte, so the engine's framing is checked against an independent reading.
///
/// One characteristic (handle 3). `01 size:u32` starts (answers `81 00`), `02 offset:u32 data`
/// stores data at the offset it expects (answers `82 00 next:u32`), `03` answers
/// `83 00 crc32:u32` of what it stored. Answers are notified a few bytes at a time.
final class FramedStoreDevice: GATTTransport {
    let name = "framed-store"
    let address = DeviceAddress(string: "C0:FF:EE:00:00:0A")!
    var now: Duration = .zero
    /// Bytes per notification: frames arrive split across notifications.
    var notificationSize = 4
    /// Answers (counted from 1) sent with a corrupted trailer.
    var corruptAnswers: Set<Int> = []
    /// Every complete frame written to the device, as written.
    private(set) var receivedFrames: [[UInt8]] = []
    /// Frames the device dropped because their trailer did not match.
    private(set) var badFrames = 0
    private(set) var stored: [UInt8] = []
    private var inbound: [UInt8] = []
    private var answersSent = 0
    fileprivate var outbox: [[UInt8]] = []

    static let service = BluetoothUUID(uuid16: 0xFEED)
    static let characteristic = GATTCharacteristic(service: service, uuid: BluetoothUUID(uuid16: 0xBEEF), valueHandle: 3,
                                                   properties: [.write, .notify])

    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] { [] }

    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        Advertisement(address: address, name: name, serviceUUIDs: [Self.service], rssi: -40)
    }

    func sleep(until deadline: Duration) async { now = max(now, deadline) }

    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        FramedStoreLink(device: self)
    }

    /// One ATT write: frames are cut out of the bytes received so far.
    fileprivate func receive(_ write: [UInt8]) {
        inbound += write
        while inbound.count >= 3 {
            let total = 3 + (Int(inbound[1]) | Int(inbound[2]) << 8) + 2
            guard inbound.count >= total else { return }
            let frame = Array(inbound[..<total])
            inbound.removeFirst(total)
            receivedFrames.append(frame)
            let trailer = UInt16(frame[total - 2]) | UInt16(frame[total - 1]) << 8
            guard CRC16CCITTFalse.checksum(Array(frame[..<(total - 2)])) == trailer else {
                badFrames += 1
                continue
            }
            answer(opcode: frame[0], payload: Array(frame[3..<(total - 2)]))
        }
    }

    private func answer(opcode: UInt8, payload: [UInt8]) {
        switch opcode {
        case 0x01:
            stored = []
            send([0x81, 0x00])
        case 0x02 where payload.count >= 4:
            if Self.u32(payload) == stored.count { stored += payload[4...] }
            send([0x82, 0x00] + Self.u32Bytes(stored.count))
        case 0x03:
            send([0x83, 0x00] + Self.u32Bytes(Int(CRC32.checksum(stored))))
        default:
            send([opcode | 0x80, 0x09])
        }
    }

    /// Frames `message` (opcode, then payload) and queues it in notification-sized pieces.
    private func send(_ message: [UInt8]) {
        answersSent += 1
        let payload = message.dropFirst()
        var frame = [message[0], UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
        var crc = CRC16CCITTFalse.checksum(frame)
        if corruptAnswers.contains(answersSent) { crc ^= 0x0101 }
        frame += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        for start in stride(from: 0, to: frame.count, by: notificationSize) {
            outbox.append(Array(frame[start..<min(start + notificationSize, frame.count)]))
        }
    }

    private static func u32(_ bytes: [UInt8]) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[$1]) << ($1 * 8) }
    }

    private static func u32Bytes(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

final class FramedStoreLink: GATTLink {
    private let device: FramedStoreDevice

    fileprivate init(device: FramedStoreDevice) { self.device = device }

    var address: DeviceAddress { device.address }
    var mtu: Int { 23 }
    var now: Duration { device.now }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        [GATTService(uuid: FramedStoreDevice.service, characteristics: [FramedStoreDevice.characteristic])]
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] { [] }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        device.now += .milliseconds(8)
        device.receive(value)
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {}

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        guard !device.outbox.isEmpty else {
            device.now = max(device.now, deadline)
            return nil
        }
        device.now += .milliseconds(1)
        return GATTNotification(valueHandle: 3, value: device.outbox.removeFirst(), receivedAt: device.now)
    }

    func sleep(until deadline: Duration) async throws(GATTError) { device.now = max(device.now, deadline) }

    func disconnect() async {}
}
