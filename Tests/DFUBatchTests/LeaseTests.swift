import DFUBatch
import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import Foundation
import Synchronization
import XCTest

/// A transport whose links count the writes that reach them and can make each one take real
/// time, so that an attempt lasts long enough for heartbeats to happen.
final class CountingTransport: GATTTransport {
    let base: any GATTTransport
    let writeDelay: Duration
    let writes = Mutex(0)

    init(_ base: any GATTTransport, writeDelay: Duration = .zero) {
        self.base = base
        self.writeDelay = writeDelay
    }

    var name: String { base.name }
    var now: Duration { base.now }
    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] { try await base.scan(timeout: timeout) }
    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        CountingLink(try await base.connect(to: address, timeout: timeout), transport: self)
    }
    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        try await base.waitForAdvertisement(from: address, timeout: timeout)
    }
    func sleep(until deadline: Duration) async { await base.sleep(until: deadline) }

    var writeCount: Int { writes.withLock { $0 } }
}

final class CountingLink: GATTLink {
    let base: any GATTLink
    let transport: CountingTransport
    init(_ base: any GATTLink, transport: CountingTransport) {
        self.base = base
        self.transport = transport
    }
    var address: DeviceAddress { base.address }
    var mtu: Int { base.mtu }
    var now: Duration { base.now }
    func discoverServices() async throws(GATTError) -> [GATTService] { try await base.discoverServices() }
    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] { try await base.read(characteristic) }
    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        transport.writes.withLock { $0 += 1 }
        if transport.writeDelay > .zero {
            do { try await Task.sleep(for: transport.writeDelay) } catch {
                throw GATTError(.disconnected, address: address.description, detail: "cancelled")
            }
        }
        try await base.write(value, to: characteristic, type: type)
    }
    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try await base.setNotifications(enabled: enabled, for: characteristic, preferring: kind)
    }
    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        try await base.nextNotification(until: deadline)
    }
    func sleep(until deadline: Duration) async throws(GATTError) { try await base.sleep(until: deadline) }
    func disconnect() async { await base.disconnect() }
}

/// A simulated fleet whose writes take real time (`writeDelay` each).
struct SlowFleetSource: BatchDeviceSource {
    let fleet: SimulatedFleet
    let writeDelay: Duration
    /// False: the runner bounds each attempt by the wall clock (its watchdog), as on real radios.
    var usesVirtualTime = true
    func scan() async throws(FlashError) -> [Advertisement] { fleet.advertisements }
    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        guard let world = fleet.world(for: address, attempt: attempt, concurrency: concurrency) else {
            throw FlashError(kind: .transport, message: "no device \(address)")
        }
        return CountingTransport(world, writeDelay: writeDelay)
    }
}

/// A ledger whose heartbeats, records and releases can be made to fail.
final class ScriptedLedger: BatchLedger, Sendable {
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "connection refused (scripted)" }
    }

    struct State {
        var claimed: Set<String> = []
        var done: Set<String> = []
        var records: [AttemptRecord] = []
        var heartbeats = 0, releases = 0, recordCalls = 0
        /// Record calls that fail (transiently) before one succeeds; Int.max: they all fail.
        var recordFailures = 0
        var heartbeatLosesClaim = false
    }

    let state: Mutex<State>

    init(recordFailures: Int = 0, heartbeatLosesClaim: Bool = false) {
        state = Mutex(State(recordFailures: recordFailures, heartbeatLosesClaim: heartbeatLosesClaim))
    }

    func claim(device: String) async throws -> Bool {
        state.withLock { $0.done.contains(device) ? false : $0.claimed.insert(device).inserted }
    }

    func heartbeat(device: String) async throws {
        let loses = state.withLock { state -> Bool in
            state.heartbeats += 1
            return state.heartbeatLosesClaim
        }
        if loses { throw BatchLedgerError(.claimLost, "station line-2 took \(device) over (scripted)") }
    }

    func record(_ attempt: AttemptRecord) async throws {
        let fails = state.withLock { state -> Bool in
            state.recordCalls += 1
            guard state.recordFailures == 0 else {
                if state.recordFailures != Int.max { state.recordFailures -= 1 }
                return true
            }
            state.records.append(attempt)
            if attempt.result == .succeeded { state.done.insert(attempt.device) }
            return false
        }
        if fails { throw Unreachable() }
    }

    func release(device: String) async throws {
        state.withLock { state in
            state.releases += 1
            state.claimed.remove(device)
        }
    }

    var snapshot: State { state.withLock { $0 } }
}

final class LeaseTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!

    private func plan(_ line: LineConfiguration) throws -> BatchRunner.Plan {
        let profile = try ProfileLoader.load(path: BatchRunnerTests.root.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path)
        let image = FlashImage(name: "application", version: "1.0.0",
                               data: (0..<12_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        return BatchRunner.Plan(line: line, profile: profile, images: [image])
    }

    private func fleet(_ count: Int) throws -> SimulatedFleet {
        try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=\(count)"))
    }

    // MARK: The gate

    /// The gate's deadline is the last confirmed send time + lease - margin, on a monotonic clock
    /// that a test moves by hand (as SIGSTOP would, with no heartbeat meanwhile): past it not one
    /// write reaches the link, nor a new connection.
    func testGateRefusesWritesOnceTheLocalDeadlinePassed() async throws {
        let start = ContinuousClock.now
        let now = Mutex(start)
        let gate = LeaseGate(device: address, lease: .seconds(120), claimSentAt: start, margin: .seconds(20),
                             now: { now.withLock { $0 } })
        XCTAssertEqual(gate.deadline, start + .seconds(100))
        let simulated = try fleet(1)
        let world = try XCTUnwrap(simulated.world(for: address, attempt: 1, concurrency: 1))
        let counting = CountingTransport(world)
        let transport = LeaseGatedTransport(counting, gate: gate)
        let link = try await transport.connect(to: address, timeout: .seconds(5))
        let services = try await link.discoverServices()
        let characteristic = try XCTUnwrap(services.flatMap(\.characteristics).first { $0.properties.contains(.write) })

        now.withLock { $0 = start + .seconds(99) }
        try? await link.write([0x01], to: characteristic, type: .withResponse)
        XCTAssertEqual(counting.writeCount, 1, "before the deadline the write goes through")

        gate.renewed(sentAt: start + .seconds(50))
        XCTAssertEqual(gate.deadline, start + .seconds(150), "a heartbeat sent at 50 s moves the deadline to 150 s")
        gate.renewed(sentAt: start + .seconds(10))
        XCTAssertEqual(gate.deadline, start + .seconds(150), "an older heartbeat never moves it back")

        now.withLock { $0 = start + .seconds(150) }
        do {
            try await link.write([0x02], to: characteristic, type: .withResponse)
            XCTFail("a write past the deadline was let through")
        } catch {
            XCTAssertEqual(error.kind, .transportUnavailable)
            XCTAssertTrue(error.description.contains("no longer holds its claim"), error.description)
        }
        do {
            try await link.setNotifications(enabled: true, for: characteristic, preferring: .notifications)
            XCTFail("a subscription past the deadline was let through")
        } catch {
            XCTAssertEqual(error.kind, .transportUnavailable)
        }
        do {
            _ = try await transport.connect(to: address, timeout: .seconds(5))
            XCTFail("a connection past the deadline was let through")
        } catch {
            XCTAssertEqual(error.kind, .transportUnavailable)
        }
        XCTAssertEqual(counting.writeCount, 1, "not one write reached the link after the deadline")
        XCTAssertFalse(gate.isOpen)
        // A renewal confirmed after the deadline (a process continued after SIGSTOP) does not reopen it.
        gate.renewed(sentAt: start + .seconds(151))
        XCTAssertFalse(gate.isOpen)
        XCTAssertNotNil(gate.revokedReason)
    }

    func testRevokedGateRefusesWritesBeforeItsDeadline() async throws {
        let gate = LeaseGate(device: address, lease: .seconds(600), claimSentAt: .now)
        XCTAssertTrue(gate.isOpen)
        XCTAssertEqual(gate.margin, .seconds(30), "a sixth of the lease, at most 30 s")
        gate.revoke("the ledger says: station line-2 took the device over")
        XCTAssertThrowsError(try gate.check()) { error in
            XCTAssertTrue("\(error)".contains("line-2 took the device over"), "\(error)")
        }
        gate.renewed(sentAt: .now + .seconds(60))
        XCTAssertFalse(gate.isOpen, "a revoked gate stays shut")
    }

    // MARK: The runner

    /// The ledger answers the first heartbeat with "claim lost": the running attempt is cancelled,
    /// recorded as cancelled with kind claim-lost (never a success), not retried.
    func testLostClaimStopsTheAttemptAndIsNeverRecordedAsSuccess() async throws {
        var line = LineConfiguration()
        // Heartbeat at 400 ms; the local deadline at 1 s leaves room for a slow machine.
        line.lease = .milliseconds(1_200)
        line.retries = 2
        let ledger = ScriptedLedger(heartbeatLosesClaim: true)
        let source = SlowFleetSource(fleet: try fleet(1), writeDelay: .milliseconds(20))
        let runner = BatchRunner(plan: try plan(line), source: source, ledger: ledger)
        let summary = try await runner.run()
        let state = ledger.snapshot
        XCTAssertGreaterThanOrEqual(state.heartbeats, 1)
        XCTAssertEqual(summary.succeeded, 0)
        XCTAssertEqual(summary.claimsLost, 1)
        XCTAssertEqual(state.records.count, 1, "no attempt is started on a lost claim: \(state.records)")
        let record = try XCTUnwrap(state.records.first)
        XCTAssertEqual(record.result, .cancelled)
        XCTAssertEqual(record.errorKind, "claim-lost")
        XCTAssertLessThan(record.bytes, 12_000, "the transfer was cut short, not finished and relabelled")
        XCTAssertTrue(record.errorMessage?.contains("line-2 took") == true, record.errorMessage ?? "")
        XCTAssertEqual(state.releases, 1, "given back (a no-op in a ledger where another station holds it)")
        XCTAssertTrue(state.done.isEmpty)
    }

    /// On a real-time source the line's timeout is the runner's watchdog: an attempt it stops is
    /// a failed `timeout` attempt (retried, and counted by a halt rule), never "cancelled", which
    /// would read as an operator's Ctrl-C and end the device's retries.
    func testWatchdogTimeoutIsAFailedAttemptAndRetried() async throws {
        var line = LineConfiguration()
        line.deviceTimeout = .seconds(1)
        line.retries = 1
        line.backoff = .zero
        let ledger = ScriptedLedger()
        let source = SlowFleetSource(fleet: try fleet(1), writeDelay: .milliseconds(100), usesVirtualTime: false)
        let summary = try await BatchRunner(plan: try plan(line), source: source, ledger: ledger).run()
        let records = ledger.snapshot.records
        XCTAssertEqual(records.map(\.result), [.failed, .failed], "\(records)")
        XCTAssertEqual(records.map(\.errorKind), ["timeout", "timeout"])
        XCTAssertTrue(records[0].errorMessage?.contains("time bound of 1.0 s (--timeout)") == true,
                      records[0].errorMessage ?? "")
        XCTAssertLessThan(records[0].bytes, 12_000)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(summary.cancelled, 0)
    }

    /// Heartbeats that succeed keep the claim (and the gate) alive through an attempt longer than the lease.
    func testClaimIsRenewedWhileALongAttemptRuns() async throws {
        var line = LineConfiguration()
        line.lease = .milliseconds(1_200)
        let ledger = ScriptedLedger()
        let source = SlowFleetSource(fleet: try fleet(1), writeDelay: .milliseconds(25))
        let runner = BatchRunner(plan: try plan(line), source: source, ledger: ledger)
        let started = ContinuousClock.now
        let summary = try await runner.run()
        let took = ContinuousClock.now - started
        XCTAssertEqual(summary.succeeded, 1, "\(ledger.snapshot.records)")
        XCTAssertEqual(summary.claimsLost, 0)
        // The attempt outlasted the lease (the writes alone take that long), so it needed renewals.
        XCTAssertGreaterThan(took, line.lease)
        XCTAssertGreaterThanOrEqual(ledger.snapshot.heartbeats, 2)
    }

    /// A record that fails twice (ledger briefly unreachable) is retried and written once.
    func testFailedLedgerWritesAreRetried() async throws {
        var line = LineConfiguration()
        line.concurrency = 2
        let ledger = ScriptedLedger(recordFailures: 2)
        let runner = BatchRunner(plan: try plan(line), source: FleetSource(fleet: try fleet(4)), ledger: ledger,
                                 ledgerRetry: LedgerRetryPolicy(firstDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
                                                                giveUpAfter: .seconds(5)))
        let summary = try await runner.run()
        let state = ledger.snapshot
        XCTAssertNil(summary.ledgerFailure)
        XCTAssertEqual(summary.succeeded, 4)
        XCTAssertEqual(summary.unconfirmedRecords, 0)
        XCTAssertEqual(state.records.count, 4, "every attempt recorded once")
        XCTAssertEqual(state.recordCalls, 6, "two calls failed and were retried")
        XCTAssertEqual(state.done.count, 4)
    }

    /// A ledger that stays unreachable past the retry bound stops the batch: no further device is
    /// started, the success it could not record is not counted as done, and the summary says why.
    func testUnreachableLedgerStopsStartingDevices() async throws {
        var line = LineConfiguration()
        line.concurrency = 1
        let ledger = ScriptedLedger(recordFailures: Int.max)
        let events = Mutex<[String]>([])
        let runner = BatchRunner(plan: try plan(line), source: FleetSource(fleet: try fleet(10)), ledger: ledger,
                                 ledgerRetry: LedgerRetryPolicy(firstDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
                                                                giveUpAfter: .milliseconds(100))) { event in
            if case let .ledgerWriteFailed(device, operation, _) = event {
                events.withLock { $0.append("\(device) \(operation)") }
            }
        }
        let summary = try await runner.run()
        let failure = try XCTUnwrap(summary.ledgerFailure)
        XCTAssertTrue(failure.contains("connection refused (scripted)"), failure)
        XCTAssertTrue(summary.stoppedEarly)
        XCTAssertEqual(summary.devices, 1, "no device is started once the ledger is unreachable")
        XCTAssertEqual(summary.succeeded, 0, "a success the ledger does not hold is not done")
        XCTAssertEqual(summary.unconfirmedRecords, 1)
        XCTAssertGreaterThan(ledger.snapshot.recordCalls, 2, "the record was retried before giving up")
        XCTAssertEqual(events.withLock { $0 }, ["C0:FF:EE:00:00:01 record attempt 1 (succeeded)"])
        XCTAssertEqual(ledger.snapshot.releases, 1, "the device not done is given back")
    }
}

extension LeaseTests {
    func testLeaseIsReadFromTheLineFileAndChecked() throws {
        let line = try LineFileLoader.load(text: "profile: vendor-ctrlpt\nlease: 2m\n", path: "line.yaml")
        XCTAssertEqual(line.lease, .seconds(120))
        XCTAssertEqual(LineConfiguration().lease, .seconds(600), "10 minutes unless set")
        XCTAssertThrowsError(try LineFileLoader.load(text: "profile: x\nlease: 500ms\n", path: "bad.yaml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("bad.yaml:2:8: error: 'lease' must be at least 1s"), "\(error)")
        }
        XCTAssertThrowsError(try LineFileLoader.load(text: "profile: x\nlease: soon\n", path: "bad.yaml")) { error in
            XCTAssertTrue("\(error)".contains("'lease' must be a duration"), "\(error)")
        }
    }
}
