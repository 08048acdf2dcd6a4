import DFUBytes
import DFUGATT
import DFUSimulator

/// A minimal device for link-model tests: one characteristic at handle 3 that records every
/// write and answers each with `answersPerWrite` notifications (the written value plus the
/// answer's index) once `processingTime` has passed.
final class ScriptedPeripheral: SimulatedPeripheral {
    static let service = BluetoothUUID(uuid16: 0xFFF0)
    static let characteristic = GATTCharacteristic(service: service, uuid: BluetoothUUID(uuid16: 0xFFF1),
                                                   valueHandle: 3, properties: [.write, .writeWithoutResponse, .notify])

    var processingTime: Duration
    var answersPerWrite: Int
    private(set) var writes: [(time: Duration, value: [UInt8])] = []
    private(set) var endedAt: [Duration] = []

    let advertisement = Advertisement(address: DeviceAddress(string: "C0:00:00:00:00:01")!, name: "TEST",
                                      serviceUUIDs: [ScriptedPeripheral.service], rssi: -50)
    var services: [GATTService] { [GATTService(uuid: Self.service, characteristics: [Self.characteristic])] }

    init(processingTime: Duration = .zero, answersPerWrite: Int = 0) {
        self.processingTime = processingTime
        self.answersPerWrite = answersPerWrite
    }

    func connectionStarted(mtu: Int, at time: Duration) {}
    func connectionEnded(at time: Duration) { endedAt.append(time) }
    func readValue(handle: UInt16) -> [UInt8]? { handle == 3 ? [0xAB] : nil }

    func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        writes.append((time, value))
        return (0..<answersPerWrite).map { index in
            PeripheralOutput(pdu: .notification(handle: 3, value: value + [UInt8(index)]), readyAt: time + processingTime)
        }
    }

    var writeTimes: [Duration] { writes.map(\.time) }
}

enum SimulatorTestSupport {
    /// 15 ms interval, connect delay 100 ms: the link is up at 100 ms and events fall at
    /// 115, 130, 145, ... ms.
    static func settings(packetsPerEvent: Int = 6, mtu: Int = 247, transmitBuffers: Int = 12,
                         attTimeout: Duration = .seconds(30)) -> LinkSettings {
        LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: packetsPerEvent, mtu: mtu,
                     transmitBuffers: transmitBuffers, connectDelay: .milliseconds(100), attTimeout: attTimeout)
    }

    static func connect(_ peripheral: ScriptedPeripheral, settings: LinkSettings = settings(),
                        faults: FaultPlan = FaultPlan()) throws -> (SimulatedWorld, SimulatedLink) {
        let world = SimulatedWorld(name: "sim:test", settings: settings, faults: faults, peripherals: [peripheral])
        let link = try world.connectLink(to: peripheral.advertisement.address, timeout: .seconds(1))
        return (world, link)
    }

    static func ms(_ value: Int) -> Duration { .milliseconds(value) }
}
