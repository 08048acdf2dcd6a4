import DFUBatch
import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import Foundation
import Synchronization
import XCTest

/// A radio whose adapter is gone once the batch starts: it heard the devices, but every
/// connection fails as the kernel's does for an unplugged adapter.
struct UnpluggedRadioSource: BatchDeviceSource {
    let fleet: SimulatedFleet
    var usesVirtualTime: Bool { true }
    func scan() async throws(FlashError) -> [Advertisement] { fleet.advertisements }
    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        UnpluggedAdapter()
    }
}

final class UnpluggedAdapter: GATTTransport {
    private var gone: GATTError { GATTError(.transportUnavailable, detail: "bluez:hci1: connect: no adapter hci1 (ENODEV)") }
    var name: String { "bluez:hci1" }
    var now: Duration { .zero }
    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] { throw gone }
    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink { throw gone }
    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        throw gone
    }
    func sleep(until deadline: Duration) async {}
}

/// A radio that cannot scan at all (its adapter was never there).
struct DeafRadioSource: BatchDeviceSource {
    var usesVirtualTime: Bool { true }
    func scan() async throws(FlashError) -> [Advertisement] {
        throw FlashError(kind: .transport, message: "bluez:hci7: HCIGETDEVINFO: no adapter hci7 (ENODEV)")
    }
    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        throw FlashError(kind: .transport, message: "no adapter")
    }
}

/// Two simulated fleets where one radio's first scan hears only the first: devices brought in
/// while the line runs. Counts the scans.
final class ArrivingFleetsSource: BatchDeviceSource, Sendable {
    let early: SimulatedFleet, late: SimulatedFleet
    private let scans = Mutex(0)

    init(early: SimulatedFleet, late: SimulatedFleet) {
        self.early = early
        self.late = late
    }

    var usesVirtualTime: Bool { true }
    var scanCount: Int { scans.withLock { $0 } }

    func scan() async throws(FlashError) -> [Advertisement] {
        let count = scans.withLock { count -> Int in
            count += 1
            return count
        }
        return count <= 2 ? early.advertisements : early.advertisements + late.advertisements
    }

    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        guard let world = early.world(for: address, attempt: attempt, concurrency: concurrency)
                ?? late.world(for: address, attempt: attempt, concurrency: concurrency) else {
            throw FlashError(kind: .transport, message: "no device \(address)")
        }
        return world
    }
}

/// A station with several radios (`BatchRunner(plan:radios:...)`) on simulated fleets: each
/// device flashed once on one radio, every radio used, a failed radio failing only its own.
final class MultiRadioBatchTests: XCTestCase {
    private func profile() throws -> Profile {
        try ProfileLoader.load(path: BatchRunnerTests.root.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path)
    }

    private func image() -> FlashImage {
        FlashImage(name: "application", version: "1.0.0", data: (0..<9_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
    }

    private func fleet(_ query: String) throws -> SimulatedFleet {
        try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?" + query))
    }

    private func installed(_ fleet: SimulatedFleet, _ address: DeviceAddress) -> Bool {
        (fleet.device(at: address) as? VendorControlPointDevice)?.installed?.data == image().data
    }

    private final class Events: Sendable {
        private let seen = Mutex<[BatchEvent]>([])
        func add(_ event: BatchEvent) { seen.withLock { $0.append(event) } }
        var all: [BatchEvent] { seen.withLock { $0 } }
        var starts: [(DeviceAddress, String?)] {
            all.compactMap { if case let .deviceStarted(address, _, _, radio) = $0 { (address, radio) } else { nil } }
        }
    }

    private func runner(_ line: LineConfiguration, radios: [BatchRadio], ledger: MemoryLedger,
                        events: Events) throws -> BatchRunner {
        BatchRunner(plan: .init(line: line, profile: try profile(), images: [image()]), radios: radios, ledger: ledger,
                    onEvent: events.add)
    }

    func testTwoRadiosHearingOneFleetFlashEachDeviceOnceAndBothWork() async throws {
        let fleet = try fleet("fleet=10")
        let source = FleetSource(fleet: fleet)
        var line = LineConfiguration()
        line.concurrency = 2
        let ledger = MemoryLedger(), events = Events()
        let summary = try await runner(line, radios: [BatchRadio(name: "hci0", source: source),
                                                      BatchRadio(name: "hci1", source: source)],
                                       ledger: ledger, events: events).run()
        XCTAssertEqual(summary.succeeded, 10)
        XCTAssertEqual(summary.failed, 0)
        XCTAssertEqual(ledger.claims.count, 10)
        XCTAssertTrue(ledger.claims.values.allSatisfy { $0 == 1 }, "no device claimed twice: \(ledger.claims)")
        XCTAssertEqual(ledger.records.count, 10, "one attempt each")
        for advertisement in fleet.advertisements {
            XCTAssertTrue(installed(fleet, advertisement.address), "\(advertisement.address) holds the image")
        }
        XCTAssertEqual(summary.radios.map(\.name), ["hci0", "hci1"])
        XCTAssertEqual(summary.radios.map(\.succeeded), [5, 5], "equally heard: shared by load")
        XCTAssertEqual(Set(ledger.records.compactMap(\.radio)), ["hci0", "hci1"])
        // Every device started on the radio its attempt was recorded on, and on one radio only.
        let startedOn = Dictionary(grouping: events.starts, by: { $0.0 }).mapValues { Set($0.map(\.1)) }
        XCTAssertTrue(startedOn.values.allSatisfy { $0.count == 1 }, "\(startedOn)")
        for record in ledger.records {
            XCTAssertEqual(startedOn[DeviceAddress(string: record.device)!], [record.radio])
        }
        // Two radios with two slots each: the simulated batch takes about a quarter of one slot's
        // work (3 of 10 devices on the busiest slot); under a loaded machine a slot may take a
        // fourth, never half, which one radio's two slots alone would need.
        let oneSlot = ledger.records.map(\.seconds).reduce(0, +)
        XCTAssertLessThan(summary.seconds, oneSlot * 0.45)
    }

    func testRadiosHearingDifferentFleetsFlashTheirOwn() async throws {
        let near = try fleet("fleet=3"), far = try fleet("fleet=3&address=C0:FF:EE:00:01:01")
        let ledger = MemoryLedger(), events = Events()
        let summary = try await runner(LineConfiguration(), radios: [
            BatchRadio(name: "radio-1", source: FleetSource(fleet: near)),
            BatchRadio(name: "radio-2", source: FleetSource(fleet: far)),
        ], ledger: ledger, events: events).run()
        XCTAssertEqual(summary.succeeded, 6)
        for record in ledger.records {
            let address = DeviceAddress(string: record.device)!
            XCTAssertEqual(record.radio, near.device(at: address) != nil ? "radio-1" : "radio-2", record.device)
            XCTAssertTrue(installed(near.device(at: address) != nil ? near : far, address))
        }
    }

    func testAFailedRadioFailsOnlyItsOwnDevicesAndNamesItself() async throws {
        let fleet = try fleet("fleet=8")
        var line = LineConfiguration()
        line.concurrency = 2
        line.retries = 2
        let ledger = MemoryLedger(), events = Events()
        let summary = try await runner(line, radios: [BatchRadio(name: "hci0", source: FleetSource(fleet: fleet)),
                                                      BatchRadio(name: "hci1", source: UnpluggedRadioSource(fleet: fleet))],
                                       ledger: ledger, events: events).run()
        let (good, gone) = (summary.radios[0], summary.radios[1])
        XCTAssertEqual(good.devices, 4)
        XCTAssertEqual(good.succeeded, 4, "the other radio goes on")
        XCTAssertEqual(good.failed, 0)
        XCTAssertEqual(gone.devices, 4)
        XCTAssertEqual(gone.failed, 4)
        XCTAssertEqual(gone.succeeded, 0)
        XCTAssertTrue(gone.failure?.contains("no adapter hci1 (ENODEV)") == true, "\(gone)")
        XCTAssertEqual(summary.succeeded, 4)
        XCTAssertEqual(summary.failed, 4)
        XCTAssertEqual(summary.devices, 8)
        let failed = ledger.records.filter { $0.radio == "hci1" }
        XCTAssertFalse(failed.isEmpty)
        XCTAssertTrue(failed.allSatisfy { $0.result == .failed && $0.attempt == 1 }, "no retry on a radio that failed")
        XCTAssertLessThanOrEqual(failed.count, 2, "at most its two slots tried before it was known gone")
        let notices = events.all.compactMap { event -> (String, String, [DeviceAddress])? in
            if case let .radioFailed(radio, reason, untried) = event { (radio, reason, untried) } else { nil }
        }
        XCTAssertEqual(notices.count, 1)
        XCTAssertEqual(notices.first?.0, "hci1")
        XCTAssertEqual((notices.first?.2.count ?? 0) + failed.count, 4, "the rest were never tried")
        for record in ledger.records where record.radio == "hci0" {
            XCTAssertEqual(record.result, .succeeded)
            XCTAssertTrue(installed(fleet, DeviceAddress(string: record.device)!))
        }
        for address in notices.first?.2 ?? [] {
            XCTAssertNil(ledger.claims[address.description], "an untried device is left unclaimed for the next run")
        }
    }

    func testARadioThatCannotScanIsFailedAndTheOthersGoOn() async throws {
        let fleet = try fleet("fleet=3")
        let ledger = MemoryLedger(), events = Events()
        let summary = try await runner(LineConfiguration(), radios: [BatchRadio(name: "hci7", source: DeafRadioSource()),
                                                                     BatchRadio(name: "hci0", source: FleetSource(fleet: fleet))],
                                       ledger: ledger, events: events).run()
        XCTAssertEqual(summary.succeeded, 3)
        XCTAssertEqual(summary.radios[0].devices, 0)
        XCTAssertTrue(summary.radios[0].failure?.contains("it cannot scan") == true, "\(summary.radios[0])")
        XCTAssertNil(summary.radios[1].failure)
        // With no radio able to scan, the batch is refused before any device.
        let deaf = try runner(LineConfiguration(), radios: [BatchRadio(name: "hci7", source: DeafRadioSource()),
                                                            BatchRadio(name: "hci8", source: DeafRadioSource())],
                              ledger: MemoryLedger(), events: Events())
        do throws(FlashError) {
            _ = try await deaf.run()
            XCTFail("no radio can scan")
        } catch {
            XCTAssertEqual(error.kind, .transport)
            XCTAssertTrue(error.message.hasPrefix("no radio can scan: hci7: "), error.message)
        }
    }

    func testAnIdleRadioScansForDevicesBroughtInWhileTheOthersFlash() async throws {
        let early = try fleet("fleet=4"), late = try fleet("fleet=4&address=C0:FF:EE:00:01:01")
        let source = ArrivingFleetsSource(early: early, late: late)
        var line = LineConfiguration()
        line.count = 8
        let ledger = MemoryLedger(), events = Events()
        let summary = try await runner(line, radios: [BatchRadio(name: "hci0", source: source),
                                                      BatchRadio(name: "hci1", source: source)],
                                       ledger: ledger, events: events).run()
        XCTAssertEqual(summary.succeeded, 8, "the count was met with devices heard by later scans")
        XCTAssertGreaterThan(source.scanCount, 2)
        XCTAssertTrue(ledger.claims.values.allSatisfy { $0 == 1 })
        for advertisement in late.advertisements { XCTAssertTrue(installed(late, advertisement.address)) }
        XCTAssertEqual(summary.radios.map(\.succeeded).reduce(0, +), 8)
    }

    func testRadiosOnSimulatedAndWallClocksAreRefused() async throws {
        struct WallClockSource: BatchDeviceSource {
            var usesVirtualTime: Bool { false }
            func scan() async throws(FlashError) -> [Advertisement] { [] }
            func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError)
                -> any GATTTransport { throw FlashError(kind: .transport, message: "none") }
        }
        let mixed = try runner(LineConfiguration(), radios: [
            BatchRadio(name: "radio-1", source: FleetSource(fleet: try fleet("fleet=2"))),
            BatchRadio(name: "hci0", source: WallClockSource()),
        ], ledger: MemoryLedger(), events: Events())
        do throws(FlashError) {
            _ = try await mixed.run()
            XCTFail("a mix of clocks runs")
        } catch {
            XCTAssertEqual(error.kind, .usage)
            XCTAssertTrue(error.message.contains("mix simulated clocks (radio-1)"), error.message)
        }
    }
}
