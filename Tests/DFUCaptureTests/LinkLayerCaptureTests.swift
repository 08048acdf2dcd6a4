import DFUBytes
import DFUCapture
import DFUGATT
import XCTest

/// ll-session-{251,256,272}.pcap: LE link-layer packets built from the Core spec by
/// Fixtures/make-link-layer-pcaps.py and written by Wireshark's text2pcap.
final class LinkLayerCaptureTests: XCTestCase {
    static let expectedKinds: [CapturedOperation.Kind] = [
        .mtuExchange(client: 247, server: nil),
        .mtuExchange(client: nil, server: 185),
        .write(handle: 0x000E, value: [0x01, 0x02, 0x03], withResponse: true),  // once: the repeat is dropped
        .writeAcknowledged,
        .notification(handle: 0x0010, value: Array(0xB0...0xCD), indication: false),  // joined from two PDUs
        .write(handle: 0x0010, value: [0xAA], withResponse: false),
    ]

    func read(_ linkType: Int) throws -> (CapturedSession, CapturedConnection) {
        let session = try CaptureReader.read(path: fixturePath("ll-session-\(linkType).pcap"))
        XCTAssertEqual(session.format, .pcap(linkType: UInt32(linkType)))
        XCTAssertEqual(session.connections.count, 1, "\(session.notes)")
        let connection = try XCTUnwrap(session.connections.first)
        XCTAssertEqual(connection.peer, DeviceAddress(string: "C0:FF:EE:00:00:01"))
        XCTAssertEqual(connection.handle, 0x5065_4A3B)
        XCTAssertEqual(connection.mtu, 185)
        XCTAssertNil(connection.services)
        XCTAssertEqual(connection.advertisement?.name, "DFUKit-Sniffed")
        XCTAssertEqual(connection.advertisement?.serviceUUIDs, [BluetoothUUID(uuid16: 0xFE59)])
        XCTAssertEqual(connection.operations.map(\.kind), Self.expectedKinds)
        XCTAssertEqual(connection.ending?.reason, 0x13)
        return (session, connection)
    }

    func testLinkLayerWithPseudoHeader() throws {
        let (session, connection) = try read(256)
        XCTAssertEqual(connection.advertisement?.rssi, -50)
        XCTAssertEqual(connection.ending?.byDevice, false)
        XCTAssertEqual(session.notes.count, 1)
        XCTAssertTrue(session.notes[0].contains("does not say which side sent LL_TERMINATE_IND"), session.notes[0])
    }

    func testNordicSniffer() throws {
        let (session, connection) = try read(272)
        XCTAssertEqual(connection.advertisement?.rssi, -50)
        XCTAssertEqual(connection.ending?.byDevice, true)
        XCTAssertEqual(session.notes, [])
    }

    func testBareLinkLayer() throws {
        let (_, connection) = try read(251)
        XCTAssertEqual(connection.ending?.byDevice, false)
    }

    /// Wireshark's btle/btatt dissection of the same files, with what it marks as a bad CRC
    /// left out and a repeated PDU counted once, gives the same operations.
    func testWiresharkReadsTheSameOperations() throws {
        for linkType in [251, 256, 272] {
            let path = fixturePath("ll-session-\(linkType).pcap")
            let ours = operationLines(try XCTUnwrap(try CaptureReader.read(path: path).connections.first).operations)
            var wireshark: [String] = []
            for line in operationLines(fromTShark: try tsharkATTRows(path, filter: "btatt && !btle.crc.incorrect"))
            where line != wireshark.last {
                wireshark.append(line)
            }
            XCTAssertEqual(ours, wireshark, "link type \(linkType)")
            XCTAssertEqual(ours.count, 3, "link type \(linkType)")
        }
    }

    func testEncryptionStopsTheConnection() throws {
        // The 251 fixture up to the MTU exchange (4 records), then LL_ENC_REQ and a write that
        // is not to be read.
        var bytes = try fixtureBytes("ll-session-251.pcap")
        var end = 24
        for _ in 0..<4 { end += 16 + Int(bytes[end + 8]) | Int(bytes[end + 9]) << 8 }
        bytes = Array(bytes.prefix(end))
        let llEncRequest: [UInt8] = [0x3B, 0x4A, 0x65, 0x50, 0x03, 0x17, 0x03] + [UInt8](repeating: 0, count: 22)
            + [0, 0, 0]
        let write: [UInt8] = [0x3B, 0x4A, 0x65, 0x50, 0x02, 0x08, 0x04, 0x00, 0x04, 0x00, 0x52, 0x10, 0x00, 0x77] + [0, 0, 0]
        for packet in [llEncRequest, write] {
            bytes += [0, 0, 0, 0, 0, 0, 0, 0] + [UInt8(packet.count), 0, 0, 0, UInt8(packet.count), 0, 0, 0] + packet
        }
        let session = try CaptureReader.read(bytes: bytes, source: "encrypted.pcap")
        XCTAssertEqual(session.connections.count, 1)
        XCTAssertEqual(session.connections[0].operations.count, 2)
        XCTAssertEqual(session.connections[0].mtu, 185)
        XCTAssertTrue(session.notes.contains { $0.contains("LL_ENC_REQ") }, "\(session.notes)")
    }
}
