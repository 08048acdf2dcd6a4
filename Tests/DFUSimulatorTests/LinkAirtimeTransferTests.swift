import XCTest
import DFUGATT
@testable import DFUSimulator

/// The simulated link with airtime: streams and request/response exchanges take their
/// physical time, and no transfer beats `LinkAirtime.physicalLimit`, the limit the bench's
/// `physical_efficiency` divides by.
final class LinkAirtimeTransferTests: XCTestCase {
    private let characteristic = ScriptedPeripheral.characteristic

    /// Streams `count` full writes without response; returns value bytes per second from the
    /// link's start to the arrival of the last write.
    private func streamRate(_ settings: LinkSettings, count: Int = 400) async throws -> Double {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(device, settings: settings)
        let start = link.now
        let value = [UInt8](repeating: 0x5A, count: settings.mtu - 3)
        for _ in 0..<count { try await link.write(value, to: characteristic, type: .withoutResponse) }
        try await link.sleep(until: link.now + .seconds(60))
        XCTAssertEqual(device.writes.count, count)
        let last = try XCTUnwrap(device.writeTimes.last)
        return Double(count * value.count) / (Double((last - start) / .microseconds(1)) / 1e6)
    }

    /// The bench's link settings: physical efficiency <= 1 on every one, and streams reach
    /// most of the limit (so the limit is not a loose bound either).
    func testNoStreamBeatsThePhysicalLimitAndLongEventsComeClose() async throws {
        let rows: [LinkSettings] = [
            LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 247),
            LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 498),
            LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 517),
            LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 23, dataLength: 27),
            LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 498, phy: .le2M),
            LinkSettings(connectionInterval: .milliseconds(50), packetsPerEvent: 32, mtu: 247, phy: .le2M),
            LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 247, phy: .le2M,
                         eventLength: .microseconds(3750)),
            LinkSettings(connectionInterval: .microseconds(7500), packetsPerEvent: 4, mtu: 247),
            LinkSettings(connectionInterval: .milliseconds(30), packetsPerEvent: 32, mtu: 247, phy: .codedS2),
            LinkSettings(connectionInterval: .milliseconds(30), packetsPerEvent: 32, mtu: 247, phy: .codedS8),
        ]
        for settings in rows {
            let rate = try await streamRate(settings, transmitBuffersFrom: settings)
            let limit = settings.airtime.physicalLimit(mtu: settings.mtu)
            let label = "\(settings.phy.rawValue) dl\(settings.dataLength) mtu\(settings.mtu) \(settings.connectionInterval)"
            XCTAssertLessThanOrEqual(rate / limit, 1, label)
            // Coded PHY pairs are long (17.8 ms on S8): whole pairs waste much of an event, so
            // only the fast PHYs must come close.
            if settings.packetsPerEvent == 32, settings.eventLength == nil, settings.phy == .le1M || settings.phy == .le2M {
                XCTAssertGreaterThan(rate / limit, 0.8, label)
            }
        }
    }

    private func streamRate(_ settings: LinkSettings, transmitBuffersFrom: LinkSettings) async throws -> Double {
        var settings = settings
        settings.transmitBuffers = 64
        settings.connectDelay = .milliseconds(100)
        return try await streamRate(settings)
    }

    /// ATT_MTU 498 on 1M: about 100 kB/s at most (the 184-189 kB/s cannot happen);
    /// 2M nearly doubles it.
    func testATTMTU498On1MCarriesAboutAHundredKilobytesASecond() async throws {
        let oneM = try await streamRate(LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 498,
                                                     transmitBuffers: 64))
        XCTAssertLessThan(oneM, 101_000)
        XCTAssertGreaterThan(oneM, 90_000)
        let twoM = try await streamRate(LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 498,
                                                     transmitBuffers: 64, phy: .le2M))
        XCTAssertGreaterThan(twoM, 1.6 * oneM)
    }

    /// A write request's response comes in the next event, whatever the PHY: two intervals.
    func testAWriteWithResponseStillTakesTwoIntervals() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(
            device, settings: LinkSettings(connectionInterval: .milliseconds(15), mtu: 247, phy: .le2M))
        try await link.write([UInt8](repeating: 1, count: 244), to: characteristic, type: .withResponse)
        XCTAssertEqual(device.writeTimes, [.milliseconds(115)])
        XCTAssertEqual(link.now, .milliseconds(130))
    }

    /// An ATT PDU too big for the rest of an event goes on in the next one: at a 3.75 ms event
    /// on 1M, one 251-byte pair fits (2.468 ms), so a 498-byte write (two fragments) arrives
    /// in the second event.
    func testAnATTPDULargerThanTheEventIsSplitAcrossEvents() async throws {
        let device = ScriptedPeripheral()
        let (_, link) = try SimulatorTestSupport.connect(
            device, settings: LinkSettings(connectionInterval: .milliseconds(15), mtu: 498,
                                           eventLength: .microseconds(3750)))
        try await link.write([UInt8](repeating: 2, count: 495), to: characteristic, type: .withoutResponse)
        try await link.sleep(until: .milliseconds(200))
        XCTAssertEqual(device.writeTimes, [.milliseconds(130)])
        XCTAssertEqual(link.statistics.connectionEvents, 2)
    }
}
