import XCTest
@testable import DFUSimulator

/// The airtime model (`LinkPHY`, `LinkAirtime`) against the Core specification's packet
/// formats and against published throughput figures.
final class LinkAirtimeTests: XCTestCase {
    /// Core v5.4 Vol 6 Part B 2.1/2.2: empty PDUs and full 251-byte PDUs on each PHY.
    func testPacketAirtimePerPHY() {
        XCTAssertEqual(LinkPHY.le1M.packetAirtime(payload: 0), .microseconds(80))
        XCTAssertEqual(LinkPHY.le2M.packetAirtime(payload: 0), .microseconds(44))
        XCTAssertEqual(LinkPHY.codedS2.packetAirtime(payload: 0), .microseconds(462))
        XCTAssertEqual(LinkPHY.codedS8.packetAirtime(payload: 0), .microseconds(720))
        XCTAssertEqual(LinkPHY.le1M.packetAirtime(payload: 251), .microseconds(2088))
        XCTAssertEqual(LinkPHY.le2M.packetAirtime(payload: 251), .microseconds(1048))
        XCTAssertEqual(LinkPHY.codedS8.packetAirtime(payload: 251), .microseconds(376 + (253 * 8 + 27) * 8))
        XCTAssertEqual(LinkPHY.codedS2.packetAirtime(payload: 27), .microseconds(376 + (29 * 8 + 27) * 2))
        // The MIC: 4 bytes on data PDUs only.
        XCTAssertEqual(LinkPHY.le1M.packetAirtime(payload: 27, encrypted: true), .microseconds((10 + 27 + 4) * 8))
        XCTAssertEqual(LinkPHY.le1M.packetAirtime(payload: 0, encrypted: true), .microseconds(80))
    }

    func testL2CAPFragmentation() {
        let long = LinkAirtime(dataLength: 251, connectionInterval: .milliseconds(15))
        XCTAssertEqual(long.fragments(ofATTPDU: 247), [251])
        XCTAssertEqual(long.fragments(ofATTPDU: 498), [251, 251])
        XCTAssertEqual(long.fragments(ofATTPDU: 517), [251, 251, 19])
        let short = LinkAirtime(dataLength: 27, connectionInterval: .milliseconds(15))
        XCTAssertEqual(short.fragments(ofATTPDU: 23), [27])
        XCTAssertEqual(short.fragments(ofATTPDU: 247), Array(repeating: 27, count: 9) + [8])
    }

    /// A pair: TX + T_IFS + RX + T_IFS; the event takes pairs while they fit, the first always.
    func testEventPlanning() {
        let link = LinkAirtime(phy: .le1M, dataLength: 251, connectionInterval: .milliseconds(15))
        XCTAssertEqual(link.pairTime(central: 251, peripheral: 0), .microseconds(2088 + 150 + 80 + 150))
        let full = link.planEvent(central: Array(repeating: 251, count: 10), peripheral: [])
        XCTAssertEqual(full.centralPackets, 6)          // 6 * 2468 us; a seventh pair would end at 17.3 ms
        XCTAssertEqual(full.airtime, .microseconds(6 * 2468))
        // The peripheral's packets ride in the same pairs.
        let both = link.planEvent(central: Array(repeating: 251, count: 10), peripheral: [251, 251])
        // 2 * (2088 + 150 + 2088 + 150) + 2 * 2468 = 13888 us; one more pair does not fit.
        XCTAssertEqual(both.centralPackets, 4)
        XCTAssertEqual(both.peripheralPackets, 2)
        let short = LinkAirtime(phy: .le1M, dataLength: 251, connectionInterval: .milliseconds(15),
                                eventLength: .microseconds(3750))
        XCTAssertEqual(short.planEvent(central: Array(repeating: 251, count: 10), peripheral: []).centralPackets, 1)
        let capped = LinkAirtime(phy: .le2M, connectionInterval: .milliseconds(50), maxPacketsPerEvent: 4)
        XCTAssertEqual(capped.planEvent(central: Array(repeating: 251, count: 10), peripheral: []).centralPackets, 4)
        // A pair longer than the event still goes, alone.
        let slow = LinkAirtime(phy: .codedS8, connectionInterval: .microseconds(7500))
        XCTAssertEqual(slow.planEvent(central: [251, 251], peripheral: []).centralPackets, 1)
    }

    /// Published figures: Nordic's S140 SoftDevice Specification, "Bluetooth Low Energy data
    /// throughput" (https://infocenter.nordicsemi.com/topic/sds_s140/SDS/s1xx/ble_data_throughput/ble_data_throughput.html),
    /// LE 2M PHY, ATT_MTU 247, LL data length 251, event length = connection interval,
    /// connection event length extension on, write command / notification: 1327.5 kbps at a
    /// 50 ms interval, 1376.2 kbps at 400 ms. These two values are as quoted from that table by
    /// https://blog.csdn.net/chengbaojin/article/details/124721522 (the stored copy of the
    /// Nordic page did not include the table itself).
    ///
    /// The other rows are theoretical figures computed by hand from the Core specification
    /// (v5.4 Vol 6 Part B 2.1 packet format, 4.1.1 T_IFS = 150 us, 4.5.1 connection events):
    /// k = floor(event / pair) full pairs per event, throughput = k * (ATT_MTU - 3) * 8 / interval.
    ///   1M, DL 251, MTU 247, 7.5 ms: pair = 2088+150+80+150 = 2468 us, k = 3: 780.8 kbps
    ///   1M, DL 251, MTU 247, 50 ms: k = 20: 780.8 kbps
    ///   1M, DL 27, MTU 23, 7.5 ms: pair = 296+150+80+150 = 676 us, k = 11: 234.7 kbps
    ///   2M, DL 251, MTU 247, 7.5 ms: pair = 1048+150+44+150 = 1392 us, k = 5: 1301.3 kbps
    ///   2M, DL 251, MTU 247, 15 ms, event 3.75 ms: k = 2: 260.3 kbps
    /// Each must be within 10% of the model's streaming rate.
    func testThroughputAgainstPublishedAndTheoreticalFigures() {
        struct Row { var phy: LinkPHY; var dataLength: Int; var mtu: Int; var intervalMicros: Int64
                     var eventMicros: Int64?; var kbps: Double; var source: String }
        let rows = [
            Row(phy: .le2M, dataLength: 251, mtu: 247, intervalMicros: 50_000, eventMicros: nil, kbps: 1327.5, source: "S140 SDS"),
            Row(phy: .le2M, dataLength: 251, mtu: 247, intervalMicros: 400_000, eventMicros: nil, kbps: 1376.2, source: "S140 SDS"),
            Row(phy: .le1M, dataLength: 251, mtu: 247, intervalMicros: 7_500, eventMicros: nil, kbps: 780.8, source: "Core spec"),
            Row(phy: .le1M, dataLength: 251, mtu: 247, intervalMicros: 50_000, eventMicros: nil, kbps: 780.8, source: "Core spec"),
            Row(phy: .le1M, dataLength: 27, mtu: 23, intervalMicros: 7_500, eventMicros: nil, kbps: 234.7, source: "Core spec"),
            Row(phy: .le2M, dataLength: 251, mtu: 247, intervalMicros: 7_500, eventMicros: nil, kbps: 1301.3, source: "Core spec"),
            Row(phy: .le2M, dataLength: 251, mtu: 247, intervalMicros: 15_000, eventMicros: 3_750, kbps: 260.3, source: "Core spec"),
        ]
        for row in rows {
            let link = LinkAirtime(phy: row.phy, dataLength: row.dataLength,
                                   connectionInterval: .microseconds(row.intervalMicros),
                                   eventLength: row.eventMicros.map { .microseconds($0) })
            let kbps = link.streamingRate(mtu: row.mtu) * 8 / 1000
            XCTAssertEqual(kbps, row.kbps, accuracy: row.kbps * 0.10,
                           "\(row.phy.rawValue) DL \(row.dataLength) MTU \(row.mtu) \(row.intervalMicros) us (\(row.source))")
            // The physical limit bounds every schedule.
            XCTAssertLessThanOrEqual(link.streamingRate(mtu: row.mtu), link.physicalLimit(mtu: row.mtu) * 1.000001)
        }
    }

    /// The complaint: ATT_MTU 498 cannot carry more than about 100 kB/s on 1M.
    func testPhysicalLimitOfA1MLink() {
        let link = LinkAirtime(phy: .le1M, dataLength: 251, connectionInterval: .milliseconds(15))
        let limit = link.physicalLimit(mtu: 498)
        XCTAssertLessThan(limit, 101_000)
        XCTAssertGreaterThan(limit, 95_000)
        let twoM = LinkAirtime(phy: .le2M, dataLength: 251, connectionInterval: .milliseconds(15))
        XCTAssertGreaterThan(twoM.physicalLimit(mtu: 498), 1.7 * limit)
        let s8 = LinkAirtime(phy: .codedS8, dataLength: 251, connectionInterval: .milliseconds(15))
        // A 251-byte pair on S8 (17.8 ms) outlasts the 15 ms interval: one pair an event, so
        // the rate is 495 bytes per two intervals, still a sixth of 1M's.
        XCTAssertLessThan(s8.physicalLimit(mtu: 498), limit / 5)
    }
}
