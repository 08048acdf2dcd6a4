import DFUBatch
import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import Foundation
import Synchronization
import XCTest

/// What the runner tells of each attempt for the station dashboard's live rows: the phases it
/// enters and its link (ATT_MTU, PHY, and the RSSI the scan heard), between its start and its end.
final class BatchLiveEventsTests: XCTestCase {
    func testEachAttemptTellsItsPhasesAndItsLinkBetweenStartAndFinish() async throws {
        let profile = try ProfileLoader.load(path: BatchRunnerTests.root.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path)
        let image = FlashImage(name: "application", version: "1.0.0", data: (0..<6_000).map { UInt8(truncatingIfNeeded: $0) })
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=3&mtu=185"))
        var line = LineConfiguration()
        line.concurrency = 3
        let events = Mutex<[BatchEvent]>([])
        let runner = BatchRunner(plan: .init(line: line, profile: profile, images: [image]), source: FleetSource(fleet: fleet),
                                 ledger: MemoryLedger()) { event in events.withLock { $0.append(event) } }
        let summary = try await runner.run()
        XCTAssertEqual(summary.succeeded, 3)

        let procedurePhases = ["transfer", "verify", "activate"]  // profiles/vendor-ctrlpt.yaml's phases
        for advertisement in fleet.advertisements {
            let device = advertisement.address
            var order: [String] = []
            var phases: [String] = []
            var links: [(mtu: Int?, phy: String?, rssi: Int?)] = []
            for event in events.withLock({ $0 }) {
                switch event {
                case let .deviceStarted(address, _, _, _) where address == device: order.append("started")
                case let .devicePhase(address, phase) where address == device:
                    order.append("phase")
                    phases.append(phase)
                case let .deviceLink(address, mtu, phy, rssi) where address == device:
                    order.append("link")
                    links.append((mtu, phy, rssi))
                case let .deviceFinished(address, _, _, _, _) where address == device: order.append("finished")
                default: break
                }
            }
            XCTAssertEqual(order.first, "started", "\(device): \(order)")
            XCTAssertEqual(order.last, "finished", "\(device): \(order)")
            XCTAssertEqual(phases, procedurePhases, "every phase entered once, in order")
            XCTAssertFalse(links.isEmpty)
            XCTAssertEqual(links.first?.mtu, 185, "the MTU of the connection")
            XCTAssertTrue(links.allSatisfy { $0.rssi == advertisement.rssi }, "the RSSI the scan heard: \(links)")
            XCTAssertNotNil(links.compactMap(\.phy).first, "the simulator's link model tells its PHY")
        }
    }
}
