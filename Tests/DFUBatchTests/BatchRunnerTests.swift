import DFUBatch
import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import Foundation
import Synchronization
import XCTest

/// A ledger in memory, counting claims, so tests can see every device is flashed once.
final class MemoryLedger: BatchLedger, Sendable {
    private struct State {
        var done: Set<String> = []
        var claimed: Set<String> = []
        var records: [AttemptRecord] = []
        var claims: [String: Int] = [:]
    }
    private let state: Mutex<State>

    init(done: Set<String> = []) { state = Mutex(State(done: done)) }

    func claim(device: String) async throws -> Bool {
        state.withLock { state in
            guard !state.done.contains(device), !state.claimed.contains(device) else { return false }
            state.claimed.insert(device)
            state.claims[device, default: 0] += 1
            return true
        }
    }

    func record(_ attempt: AttemptRecord) async throws {
        state.withLock { state in
            state.records.append(attempt)
            if attempt.result == .succeeded || attempt.result == .skipped { state.done.insert(attempt.device) }
        }
    }

    func heartbeat(device: String) async throws {
        let held = state.withLock { $0.claimed.contains(device) }
        if !held { throw BatchLedgerError(.claimLost, "no claim on \(device)") }
    }

    func release(device: String) async throws { state.withLock { _ = $0.claimed.remove(device) } }

    var records: [AttemptRecord] { state.withLock { $0.records } }
    var done: Set<String> { state.withLock { $0.done } }
    var claims: [String: Int] { state.withLock { $0.claims } }
}

struct FleetSource: BatchDeviceSource {
    let fleet: SimulatedFleet
    var usesVirtualTime: Bool { true }
    func scan() async throws(FlashError) -> [Advertisement] { fleet.advertisements }
    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        guard let world = fleet.world(for: address, attempt: attempt, concurrency: concurrency) else {
            throw FlashError(kind: .transport, message: "no device \(address)")
        }
        return world
    }
}

final class BatchRunnerTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func profile() throws -> Profile {
        try ProfileLoader.load(path: Self.root.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path)
    }

    private func image(_ size: Int = 12_000) -> FlashImage {
        FlashImage(name: "application", version: "1.0.0", data: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }

    private func run(_ line: LineConfiguration, fleet query: String, ledger: MemoryLedger = MemoryLedger(),
                     profile: Profile? = nil) async throws -> (BatchSummary, MemoryLedger, SimulatedFleet) {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?" + query))
        let runner = BatchRunner(plan: .init(line: line, profile: try profile ?? self.profile(), images: [image()]),
                                 source: FleetSource(fleet: fleet), ledger: ledger)
        return (try await runner.run(), ledger, fleet)
    }

    func testEveryDeviceIsFlashedOnceAndVerified() async throws {
        var line = LineConfiguration()
        line.concurrency = 4
        let (summary, ledger, fleet) = try await run(line, fleet: "fleet=10")
        XCTAssertEqual(summary.devices, 10)
        XCTAssertEqual(summary.succeeded, 10)
        XCTAssertEqual(summary.failed, 0)
        XCTAssertEqual(ledger.done.count, 10)
        XCTAssertTrue(ledger.claims.values.allSatisfy { $0 == 1 }, "no device is claimed twice")
        for advertisement in fleet.advertisements {
            let device = try XCTUnwrap(fleet.device(at: advertisement.address) as? VendorControlPointDevice)
            XCTAssertTrue(device.installed?.data == image().data, "\(advertisement.address) holds the image")
        }
    }

    func testFaultyDevicesAreRetriedAndSucceed() async throws {
        var line = LineConfiguration()
        line.concurrency = 3
        line.retries = 1
        let (summary, ledger, fleet) = try await run(line, fleet: "fleet=12&fault-rate=0.5&seed=7")
        let faulty = fleet.advertisements.filter { fleet.isFaulty($0.address) }.count
        XCTAssertGreaterThan(faulty, 0, "the seed gives some faulty devices")
        XCTAssertEqual(summary.succeeded, 12)
        XCTAssertEqual(summary.attempts, 12 + faulty, "one retry per faulty device")
        XCTAssertEqual(ledger.records.filter { $0.result == .failed }.count, faulty)
    }

    func testWithoutRetriesFaultyDevicesFailAndAreReleased() async throws {
        var line = LineConfiguration()
        line.retries = 0
        let (summary, ledger, fleet) = try await run(line, fleet: "fleet=8&fault-rate=0.5&seed=7")
        let faulty = fleet.advertisements.filter { fleet.isFaulty($0.address) }.count
        XCTAssertEqual(summary.failed, faulty)
        XCTAssertEqual(summary.succeeded, 8 - faulty)
        XCTAssertEqual(ledger.done.count, 8 - faulty)
    }

    func testDevicesAlreadyDoneAreSkippedAndCountTowardTheTarget() async throws {
        var line = LineConfiguration()
        line.count = 5
        let done: Set<String> = ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02"]
        let (summary, ledger, _) = try await run(line, fleet: "fleet=10", ledger: MemoryLedger(done: done))
        XCTAssertEqual(summary.skipped, 2)
        XCTAssertEqual(summary.succeeded, 3, "two were done before: three more make five")
        XCTAssertEqual(ledger.done.count, 5)
    }

    func testMinimumRSSIKeepsOnlyDevicesInTheFixture() async throws {
        var line = LineConfiguration()
        line.minimumRSSI = -50
        let (summary, _, fleet) = try await run(line, fleet: "fleet=12")
        let strong = fleet.advertisements.filter { $0.rssi >= -50 }.count
        XCTAssertGreaterThan(strong, 0)
        XCTAssertLessThan(strong, 12)
        XCTAssertEqual(summary.devices, strong)
    }

    func testANameFilterKeepsOnlyDevicesWhoseNameFits() async throws {
        var line = LineConfiguration()
        line.namePattern = "Other-*"
        let (none, _, _) = try await run(line, fleet: "fleet=4")
        XCTAssertEqual(none.devices, 0)
        line.namePattern = "DFU-*"
        let (all, _, _) = try await run(line, fleet: "fleet=4")
        XCTAssertEqual(all.devices, 4)
    }

    /// A profile without match rules would take every advertiser nearby: without addresses the
    /// batch refuses it before claiming any device.
    func testAProfileWithoutMatchRulesIsRefusedWithoutAddresses() async throws {
        var profile = try profile()
        profile.match = MatchRules(namePattern: nil, services: [])
        let ledger = MemoryLedger()
        do {
            _ = try await run(LineConfiguration(), fleet: "fleet=3", ledger: ledger, profile: profile)
            XCTFail("the batch ran")
        } catch let error as FlashError {
            XCTAssertEqual(error.kind, .usage)
            XCTAssertEqual(error.message, DeviceSelection.refusal(profile: profile, address: nil))
        }
        var line = LineConfiguration()
        line.addresses = ["C0:FF:EE:00:00:01"]
        let (addressed, _, _) = try await run(line, fleet: "fleet=3", profile: profile)
        XCTAssertEqual(addressed.succeeded, 1)
    }

    func testPostFlashCheckComparesTheRunningFirmware() async throws {
        var line = LineConfiguration()
        let location = SourceLocation(file: "line.yaml", line: 1, column: 1)
        line.checks = [PostFlashCheck(command: "info", expect: [try ExpressionParser.parse("info.sha256 == image.sha256", at: location)])]
        let (good, _, _) = try await run(line, fleet: "fleet=2")
        XCTAssertEqual(good.succeeded, 2)
        line.checks = [PostFlashCheck(command: "info", expect: [try ExpressionParser.parse("info.size == 1", at: location)])]
        line.retries = 0
        let (bad, ledger, _) = try await run(line, fleet: "fleet=2")
        XCTAssertEqual(bad.failed, 2)
        XCTAssertTrue(ledger.records.allSatisfy { ($0.errorMessage ?? "").contains("expected info.size == 1") })
    }

    /// Shared air time: concurrency helps until the adapter's packets run out.
    func testConcurrencyShortensTheBatchOnTheSimulatedClock() async throws {
        var sequential = LineConfiguration()
        sequential.concurrency = 1
        var parallel = LineConfiguration()
        parallel.concurrency = 4
        let (one, _, _) = try await run(sequential, fleet: "fleet=8")
        let (four, _, _) = try await run(parallel, fleet: "fleet=8")
        XCTAssertEqual(one.succeeded, 8)
        XCTAssertEqual(four.succeeded, 8)
        XCTAssertLessThan(four.seconds, one.seconds / 2)
    }

    func testLineFileIsReadAndItsErrorsHaveLocations() throws {
        let line = try LineFileLoader.load(text: """
            profile: vendor-ctrlpt
            package: app.zip
            device: "sim:vendor-ctrlpt?fleet=4"
            count: 3
            min-rssi: -60
            concurrency: 2
            retries: 4
            backoff: 500ms
            checks:
              - exec: info
                expect: [info.sha256 == image.sha256]
            set: { prn: 12 }
            """, path: "line.yaml")
        XCTAssertEqual(line.count, 3)
        XCTAssertEqual(line.minimumRSSI, -60)
        XCTAssertEqual(line.concurrency, 2)
        XCTAssertEqual(line.checks.first?.command, "info")
        XCTAssertEqual(line.parameters["prn"], .integer(12))
        XCTAssertEqual(line.delay(beforeAttempt: 3), .seconds(1))
        XCTAssertThrowsError(try LineFileLoader.load(text: "profile: x\nconcurrency: lots\n", path: "bad.yaml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("bad.yaml:2:14: error: 'concurrency' must be an integer"), "\(error)")
        }
    }
}
