import DFUBytes
import DFUGATT
import DFUWire
import XCTest
@testable import DFUSimulator

/// A device end for line tests: it answers each chunk it hears with the same bytes after
/// `processing`, and reboots (silent for `boot`) `resetDelay` after it hears `resetByte`.
final class EchoWireDevice: SimulatedWirePeripheral {
    var processing: Duration = .zero
    var resetDelay: Duration = .milliseconds(250)
    var boot: Duration = .seconds(1)
    var resetByte: UInt8 = 0x52  // "R"
    let wireKind: WireKind
    private(set) var heard: [(bytes: [UInt8], at: Duration)] = []
    private var cycle = PowerCycle()

    init(kind: WireKind = .stream) { self.wireKind = kind }

    var name: String { "echo" }
    var isRunning: Bool { !cycle.isBooting }
    var nextTimer: Duration? { cycle.deadline }

    func receive(_ bytes: [UInt8], at time: Duration) -> [WireDeviceOutput] {
        heard.append((bytes, time))
        if bytes.contains(resetByte) { cycle.scheduleReset(at: time + resetDelay) }
        return [WireDeviceOutput(bytes: bytes, readyAt: time + processing)]
    }

    func fireTimers(at time: Duration) -> [WireDeviceEvent] {
        switch cycle.due(at: time) {
        case .reset?:
            cycle.rebooted(at: time, silentFor: boot)
            return [.reset(reason: "echo reset")]
        case .booted?:
            return [.output(WireDeviceOutput(bytes: Array("booted\n".utf8), readyAt: time))]
        case nil:
            return []
        }
    }

    func powerCycle(at time: Duration) { cycle.rebooted(at: time, silentFor: boot) }
    func shiftClock(by offset: Duration) { cycle.shift(by: offset) }
}

extension ByteWire {
    /// Reads until `count` bytes came or `deadline` passed.
    func read(count: Int, until deadline: Duration) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count, let chunk = try await receive(until: deadline) { bytes += chunk }
        return bytes
    }
}

/// `seconds` as a Double, for comparing times.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A binding with one characteristic, for transports over test wires.
enum EchoBinding {
    static let service = BluetoothUUID(uuid16: 0xFFF0)
    static let characteristic = GATTCharacteristic(service: service, uuid: BluetoothUUID(uuid16: 0xFFF1),
                                                   valueHandle: 3, properties: [.write, .notify])
    static let binding = WireBinding(medium: .serial, framing: DatagramFraming(),
                                     services: [GATTService(uuid: service, characteristics: [characteristic])],
                                     writes: [3: WireWrite()], responseHandle: 3)
}
