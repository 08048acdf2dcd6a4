import DFUBytes
import DFUCapture
import DFUGATT
import XCTest

/// bumble-session.btsnoop / .pcap: written by Bumble 0.0.236's BtSnooper and PcapSnooper
/// (Fixtures/make-bumble-btsnoop.py): a Bumble central and peripheral on Bumble's LocalLink.
/// bumble-session-monitor.btsnoop: the same packets as btmon's datalink 2001
/// (Fixtures/make-monitor-btsnoop.py).
final class BumbleCaptureTests: XCTestCase {
    static let service = BluetoothUUID(string: "D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
    static let control = BluetoothUUID(string: "D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
    static let data = BluetoothUUID(string: "D0F10002-7E3C-4B8A-9C52-1A2B3C4D5E6F")!

    /// What the script did, in order, as the central's HCI traffic shows it.
    static let expectedKinds: [CapturedOperation.Kind] = [
        .mtuExchange(client: 64, server: nil),
        .mtuExchange(client: nil, server: 517),
        .subscribe(descriptorHandle: 0x0011, valueHandle: 0x0010, configuration: 1),
        .writeAcknowledged,
        .write(handle: 0x0010, value: [0x01, 0x02], withResponse: true),
        .writeAcknowledged,
        .write(handle: 0x0010, value: [0x03], withResponse: false),
        .notification(handle: 0x0010, value: [0xA1], indication: false),
        .notification(handle: 0x0010, value: [0xA2, 0xA3], indication: false),
        .write(handle: 0x0013, value: Array(0..<100), withResponse: true),
        .writeAcknowledged,
        .read(handle: 0x0013),
        .readValue(Array(0..<100)),
    ]

    func assertBumbleSession(_ session: CapturedSession, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(session.connections.count, 1, "\(session.notes)", file: file, line: line)
        let connection = try XCTUnwrap(session.connections.first, file: file, line: line)
        XCTAssertEqual(connection.peer, DeviceAddress(string: "F0:F1:F2:F3:F4:F5"), file: file, line: line)
        XCTAssertEqual(connection.mtu, 64, file: file, line: line)
        XCTAssertEqual(connection.operations.map(\.kind), Self.expectedKinds, file: file, line: line)
        XCTAssertEqual(connection.operations.map(\.time), connection.operations.map(\.time).sorted(), file: file, line: line)
        XCTAssertEqual(connection.advertisement?.name, "DFUKit-Fixture", file: file, line: line)
        XCTAssertEqual(connection.advertisement?.serviceUUIDs, [Self.service], file: file, line: line)
        XCTAssertEqual(connection.ending?.byDevice, false, file: file, line: line)
        XCTAssertEqual(connection.ending?.reason, 0x13, file: file, line: line)
        let services = try XCTUnwrap(connection.services, file: file, line: line)
        XCTAssertEqual(services.map(\.uuid), [BluetoothUUID(uuid16: 0x1800), BluetoothUUID(uuid16: 0x1801), Self.service],
                       file: file, line: line)
        XCTAssertEqual(services[2].characteristics, [
            GATTCharacteristic(service: Self.service, uuid: Self.control, valueHandle: 0x0010,
                               properties: [.writeWithoutResponse, .write, .notify]),
            GATTCharacteristic(service: Self.service, uuid: Self.data, valueHandle: 0x0013, properties: [.read, .write]),
        ], file: file, line: line)
        XCTAssertEqual(services[0].characteristics.map(\.valueHandle), [0x0003, 0x0005], file: file, line: line)
        XCTAssertEqual(services[1].characteristics.map(\.uuid),
                       [0x2A05, 0x2B29, 0x2B2A].map { BluetoothUUID(uuid16: $0) }, file: file, line: line)
    }

    func testBumbleBTSnoop() throws {
        let session = try CaptureReader.read(path: fixturePath("bumble-session.btsnoop"))
        XCTAssertEqual(session.format, .btsnoop(datalink: 1002))
        XCTAssertEqual(session.notes, [])
        try assertBumbleSession(session)
    }

    func testBumblePcapWithDirection() throws {
        let session = try CaptureReader.read(path: fixturePath("bumble-session.pcap"))
        XCTAssertEqual(session.format, .pcap(linkType: 201))
        XCTAssertEqual(session.notes, [])
        try assertBumbleSession(session)
    }

    func testBumbleMonitorBTSnoop() throws {
        let session = try CaptureReader.read(path: fixturePath("bumble-session-monitor.btsnoop"))
        XCTAssertEqual(session.format, .btsnoop(datalink: 2001))
        try assertBumbleSession(session)
    }

    func testWiresharkReadsTheSameOperations() throws {
        for name in ["bumble-session.btsnoop", "bumble-session.pcap", "bumble-session-monitor.btsnoop"] {
            let session = try CaptureReader.read(path: fixturePath(name))
            let ours = operationLines(try XCTUnwrap(session.connections.first).operations)
            let wireshark = operationLines(fromTShark: try tsharkATTRows(fixturePath(name)), cccds: [0x0011])
            XCTAssertEqual(ours, wireshark, name)
            XCTAssertEqual(wireshark.count, 8, name)
        }
    }
}
