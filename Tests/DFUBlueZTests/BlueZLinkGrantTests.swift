@testable import DFUBlueZ
import DFUBytes
import DFUGATT
import XCTest

/// `bluez:` asks the kernel for a short interval (Load Connection Parameters) before connecting,
/// and reports what was granted from the HCI events a raw HCI socket saw and BT_PHY.
final class BlueZLinkGrantTests: XCTestCase {
    static let device = BlueZGATTTransportTests.device

    /// HCI event packets as a raw HCI socket reads them.
    static func event(_ code: UInt8, _ parameters: [UInt8]) -> [UInt8] { [0x04, code, UInt8(parameters.count)] + parameters }
    static func leMeta(_ subevent: UInt8, _ parameters: [UInt8]) -> [UInt8] { event(0x3E, [subevent] + parameters) }
    static let peerBytes: [UInt8] = [0x05, 0x04, 0x03, 0x02, 0x01, 0xF0]
    /// LE Connection Complete: handle 0x0040, central, random peer, interval 6 (7.5 ms), latency 0, 2 s.
    static let connectionComplete = leMeta(0x01, [0x00, 0x40, 0x00, 0x00, 0x01] + peerBytes + [0x06, 0x00, 0x00, 0x00, 0xC8, 0x00, 0x00])

    func testLoadConnectionParametersBytes() {
        let entry = MgmtConnectionParameters(address: Self.device, addressType: 2)
        XCTAssertEqual(MgmtCommand.loadConnectionParameters(index: 0, [entry]).bytes,
                       [0x35, 0x00, 0x00, 0x00, 0x11, 0x00, 0x01, 0x00] + Self.peerBytes
                       + [0x02, 0x06, 0x00, 0x0C, 0x00, 0x00, 0x00, 0xC8, 0x00])
        XCTAssertEqual(entry.request, LinkGrant.Request(intervalMin: 7500, intervalMax: 15000, latency: 0,
                                                        supervisionTimeout: 2000))
    }

    /// The event log follows a connection through its events, and forgets it when it ends.
    func testEventLogFollowsTheConnection() {
        var log = HCILinkEventLog()
        log.handle(Self.connectionComplete)
        // Connection Update Complete: interval 9, latency 1, timeout 300.
        log.handle(Self.leMeta(0x03, [0x00, 0x40, 0x00, 0x09, 0x00, 0x01, 0x00, 0x2C, 0x01]))
        // Data Length Change: 251/2120 tx, 251/2120 rx.
        log.handle(Self.leMeta(0x07, [0x40, 0x00, 0xFB, 0x00, 0x48, 0x08, 0xFB, 0x00, 0x48, 0x08]))
        // PHY Update Complete: 2M both ways. Then events of another handle and garbage: ignored.
        log.handle(Self.leMeta(0x0C, [0x00, 0x40, 0x00, 0x02, 0x02]))
        log.handle(Self.leMeta(0x07, [0x41, 0x00, 0x1B, 0x00, 0x48, 0x01, 0x1B, 0x00, 0x48, 0x01]))
        log.handle([0x04, 0x3E, 0x09, 0x07])
        log.handle([0x02, 0x40, 0x00])
        let link = log.links[Self.device]
        XCTAssertEqual(link, HCILinkEventLog.Link(handle: 0x40, interval: 9, latency: 1, supervisionTimeout: 300,
                                                  txOctets: 251, rxOctets: 251, txTime: 2120, rxTime: 2120,
                                                  txPHY: 2, rxPHY: 2))
        // Disconnection Complete of handle 0x0040.
        log.handle(Self.event(0x05, [0x00, 0x40, 0x00, 0x13]))
        XCTAssertNil(log.links[Self.device])
    }

    /// The Enhanced Connection Complete (what the kernel asks for when the controller has LL
    /// privacy or extended advertising) carries two addresses before the interval.
    func testEnhancedConnectionComplete() {
        var log = HCILinkEventLog()
        log.handle(Self.leMeta(0x0A, [0x00, 0x41, 0x00, 0x00, 0x01] + Self.peerBytes + [UInt8](repeating: 0, count: 12)
                               + [0x0C, 0x00, 0x00, 0x00, 0xC8, 0x00, 0x00]))
        XCTAssertEqual(log.links[Self.device]?.handle, 0x41)
        XCTAssertEqual(log.links[Self.device]?.interval, 12)
    }

    func testGrantFromEventsAndBTPHY() {
        let requested = LinkGrant.Request(mtu: 517, intervalMin: 7500, intervalMax: 15000, latency: 0, supervisionTimeout: 2000)
        let events = HCILinkEventLog.Link(handle: 0x40, interval: 6, latency: 0, supervisionTimeout: 200)
        // BT_PHY: LE 2M TX and RX; no Data Length Change seen: 27 octets.
        let grant = BlueZLinkGrant.grant(events: events, phyBits: 0x1800, requested: requested, notes: [])
        XCTAssertEqual(grant.summary, "2M PHY, data length 27, MTU not reported, interval 7.5 ms "
                       + "(asked: MTU 517, interval 7.5-15 ms)")
        XCTAssertEqual(grant.supervisionTimeout, 2000)
        // Nothing seen (no CAP_NET_RAW), BT_PHY 1M: said so.
        let blind = BlueZLinkGrant.grant(events: nil, phyBits: 0x0600, requested: LinkGrant.Request(mtu: 517),
                                         notes: ["connection parameters not set (the kernel's defaults apply): denied"])
        XCTAssertEqual(blind.txPHY, .le1M)
        XCTAssertNil(blind.interval)
        XCTAssertNil(blind.txOctets)
        XCTAssertEqual(blind.notes.count, 2)
        XCTAssertTrue(blind.notes[1].contains("CAP_NET_RAW"), blind.notes[1])
        // An interval outside the range asked for is pointed out.
        let slow = BlueZLinkGrant.grant(events: HCILinkEventLog.Link(handle: 1, interval: 24, latency: 0, supervisionTimeout: 200),
                                        phyBits: nil, requested: requested, notes: [])
        XCTAssertEqual(slow.notes, ["the interval is not the one asked for: the kernel, the controller or the device chose it"])
    }

    /// The transport loads the connection parameters for the device's address type before
    /// connect(2), and reports what the raw HCI socket saw and BT_PHY says.
    func testTransportAsksBeforeConnectingAndReportsTheGrant() async throws {
        let fake = FakeBlueZSyscalls(adapters: [BlueZGATTTransportTests.adapter])
        fake.setAdvertisingPackets(BlueZGATTTransportTests.advertisingPackets)
        fake.setResponder(BlueZGATTTransportTests.attServer)
        fake.setOption(BlueZLinkGrant.btPHY, [0x00, 0x18, 0x00, 0x00])
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        _ = try await transport.scan(timeout: .milliseconds(50))
        let link = try await transport.connect(to: Self.device, timeout: .seconds(1))
        let calls = fake.callsWithoutReads
        let load = MgmtCommand.loadConnectionParameters(index: 0, [MgmtConnectionParameters(address: Self.device,
                                                                                           addressType: 2)]).bytes
        let loadAt = try XCTUnwrap(calls.firstIndex { if case .write(_, load) = $0 { return true } else { return false } })
        let connectAt = try XCTUnwrap(calls.firstIndex { if case .connect = $0 { return true } else { return false } })
        XCTAssertLessThan(loadAt, connectAt)
        // The raw HCI socket: bound to hci0's raw channel, filtered to LE Meta and Disconnection Complete.
        let raw = try XCTUnwrap(calls.compactMap { call -> Int32? in
            if case let .bind(descriptor, address) = call, address == HCISocketAddress(index: 0).bytes { return descriptor }
            return nil
        }.first)
        XCTAssertTrue(calls.contains(.setSocketOption(raw, level: 0, option: 2, BlueZLinkMonitor.filter)))
        XCTAssertEqual(BlueZLinkMonitor.filter, [0x10, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0])
        fake.deliver(.success(Self.connectionComplete), to: raw)
        var grant = await link.linkGrant
        for _ in 0..<100 where grant?.interval == nil {
            try await Task.sleep(for: .milliseconds(20))
            grant = await link.linkGrant
        }
        XCTAssertEqual(grant?.summary, "2M PHY, data length 27, MTU 247, interval 7.5 ms "
                       + "(asked: MTU 517, interval 7.5-15 ms)")
        XCTAssertEqual(grant?.source, .kernel)
        await link.disconnect()
    }
}
