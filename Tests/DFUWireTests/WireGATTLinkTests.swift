import DFUBytes
import DFUGATT
import DFUWire
import XCTest

/// A wire in memory on a virtual clock: what was sent is kept; what the test queued arrives at
/// its time.
final class ScriptedWire: ByteWire {
    let kind: WireKind
    var description: String { "scripted" }
    var now: Duration = .zero
    var lineRate: Int? { nil }
    var sent: [[UInt8]] = []
    var arrivals: [(at: Duration, bytes: [UInt8])] = []
    var closeAfterArrivals = false
    var closed = false

    init(kind: WireKind = .stream) { self.kind = kind }

    func send(_ bytes: [UInt8]) async throws(WireError) {
        if closed { throw WireError(.closed, wire: description, detail: "closed") }
        sent.append(bytes)
    }

    func receive(until deadline: Duration) async throws(WireError) -> [UInt8]? {
        if closed { throw WireError(.closed, wire: description, detail: "closed") }
        guard let next = arrivals.first, next.at <= deadline else {
            if arrivals.isEmpty, closeAfterArrivals {
                throw WireError(.closed, wire: description, detail: "the port went away")
            }
            now = max(now, deadline)
            return nil
        }
        arrivals.removeFirst()
        now = max(now, next.at)
        return next.bytes
    }

    func sleep(until deadline: Duration) async { now = max(now, deadline) }
    func close() async { closed = true }
}

/// A framing for tests: a message is its bytes up to a `;` (the `;` is not part of it); a line
/// starting with `#` up to `\n` is text; `!` is a broken frame.
struct SemicolonFraming: MessageFraming {
    var buffer: [UInt8] = []
    var name: String { "semicolon" }
    var largestMessage: Int { 16 }
    func encode(_ message: [UInt8]) throws(FramingRefusal) -> [UInt8] { message + [0x3B] }
    mutating func decode(_ bytes: [UInt8]) -> [FramingOutput] {
        var out: [FramingOutput] = []
        for byte in bytes {
            switch byte {
            case 0x3B: out.append(.message(buffer)); buffer = []
            case 0x21: out.append(.discarded("broken")); buffer = []
            case 0x0A where buffer.first == 0x23:
                out.append(.text(String(decoding: buffer.dropFirst(), as: UTF8.self))); buffer = []
            default: buffer.append(byte)
            }
        }
        return out
    }
    mutating func lineWentIdle() -> [FramingOutput] {
        defer { buffer = [] }
        return buffer.isEmpty ? [] : [.discarded("idle with \(buffer.count) bytes")]
    }
}

final class WireGATTLinkTests: XCTestCase {
    static let service = BluetoothUUID(string: "8D53DC1D-1DB7-4CD3-868B-8A527460AA84")!
    static let control = GATTCharacteristic(service: service, uuid: BluetoothUUID(string: "DA2E7828-FBCE-4E01-AE9E-261174997C48")!,
                                            valueHandle: 3, properties: [.writeWithoutResponse, .notify])
    static let packet = GATTCharacteristic(service: service, uuid: BluetoothUUID(string: "DA2E7828-FBCE-4E01-AE9E-261174997C49")!,
                                           valueHandle: 5, properties: [.writeWithoutResponse])

    func binding(idle: Duration? = nil, framing: any MessageFraming = SemicolonFraming()) -> WireBinding {
        WireBinding(medium: .serial, framing: framing,
                    services: [GATTService(uuid: Self.service, characteristics: [Self.control, Self.packet])],
                    writes: [3: WireWrite(), 5: WireWrite(prefix: [0x08])], responseHandle: 3, idleTimeout: idle)
    }

    func test_writesAreFramedWithTheirPrefix() async throws {
        let wire = ScriptedWire()
        let link = WireGATTLink(wire: wire, binding: binding(), address: DeviceAddress(value: 1))
        try await link.write([0x01, 0x02], to: Self.control, type: .withResponse)
        try await link.write([0xAA], to: Self.packet, type: .withoutResponse)
        XCTAssertEqual(wire.sent, [[0x01, 0x02, 0x3B], [0x08, 0xAA, 0x3B]])
        XCTAssertEqual(link.mtu, 18, "16 bytes less the 1-byte prefix, plus 3")
        XCTAssertEqual(link.medium, .serial)
        XCTAssertEqual(link.bytesSent, 6)
    }

    func test_aMessageLongerThanTheBindingAllowsIsRefused() async throws {
        let link = WireGATTLink(wire: ScriptedWire(), binding: binding(), address: DeviceAddress(value: 1))
        do {
            try await link.write([UInt8](repeating: 0, count: 16), to: Self.packet, type: .withoutResponse)
            XCTFail("expected a refusal")
        } catch {
            XCTAssertTrue(error.description.contains("longer than the 16 bytes"), error.description)
        }
    }

    func test_messagesSpreadOverReadsBecomeNotificationsAndNoiseIsKeptApart() async throws {
        let wire = ScriptedWire()
        wire.arrivals = [(.milliseconds(1), Array("#boot log\n".utf8)), (.milliseconds(2), [0x60, 0x01]),
                         (.milliseconds(3), [0x01, 0x3B, 0x21, 0x61, 0x3B])]
        let link = WireGATTLink(wire: wire, binding: binding(), address: DeviceAddress(value: 1))
        let first = try await link.nextNotification(until: .seconds(1))
        XCTAssertEqual(first?.value, [0x60, 0x01, 0x01])
        XCTAssertEqual(first?.valueHandle, 3)
        XCTAssertEqual(first?.receivedAt, .milliseconds(3))
        let second = try await link.nextNotification(until: .seconds(1))
        XCTAssertEqual(second?.value, [0x61])
        XCTAssertEqual(link.noise, [.text("boot log"), .discarded("broken")])
        let none = try await link.nextNotification(until: .seconds(2))
        XCTAssertNil(none)
        XCTAssertEqual(wire.now, .seconds(2))
    }

    func test_aPauseLongerThanTheIdleTimeoutDropsAPartialMessage() async throws {
        let wire = ScriptedWire()
        wire.arrivals = [(.milliseconds(1), [0x60, 0x01]), (.milliseconds(500), [0x62, 0x3B])]
        let link = WireGATTLink(wire: wire, binding: binding(idle: .milliseconds(100)), address: DeviceAddress(value: 1))
        let message = try await link.nextNotification(until: .seconds(1))
        XCTAssertEqual(message?.value, [0x62])
        XCTAssertEqual(link.noise, [.discarded("idle with 2 bytes")])
    }

    func test_aWireThatGoesAwayIsALostLink() async throws {
        let wire = ScriptedWire()
        wire.closeAfterArrivals = true
        let link = WireGATTLink(wire: wire, binding: binding(), address: DeviceAddress(value: 1))
        do {
            _ = try await link.nextNotification(until: .seconds(1))
            XCTFail("expected a lost link")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertTrue(error.description.contains("the port went away"))
        }
        do {
            try await link.write([1], to: Self.control, type: .withResponse)
            XCTFail("expected the lost link again")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
        }
    }

    func test_readsAreRefusedWithWhatToDo() async throws {
        let link = WireGATTLink(wire: ScriptedWire(), binding: binding(), address: DeviceAddress(value: 1))
        do {
            _ = try await link.read(Self.control)
            XCTFail("expected a refusal")
        } catch {
            XCTAssertEqual(error.kind, .unsupported)
            XCTAssertTrue(error.description.contains("only over Bluetooth"))
        }
    }

    func test_theDatagramFramingKeepsEachDatagramWhole() throws {
        var framing = DatagramFraming()
        XCTAssertEqual(framing.decode([1, 2, 3]), [.message([1, 2, 3])])
        XCTAssertEqual(framing.decode([]), [])
        XCTAssertEqual(try framing.encode([9]), [9])
    }
}
