import DFUKit
import Foundation
import XCTest

/// `DFUKit.batch` with several radios (`BatchRequest.transports`), and the one front door that
/// refuses a bad radio before anything is opened (`Preflight.batch`, `Preflight.radios`).
final class MultiRadioBatchAPITests: XCTestCase {
    private func request(_ transports: [String], in directory: ScratchDirectory) throws -> BatchRequest {
        BatchRequest(profile: try Fixtures.profile("vendor-ctrlpt"),
                     package: try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: 6_000)),
                     transports: transports)
    }

    func testTwoSimulatedRadiosOverOneFleetFlashEveryDeviceOnce() async throws {
        let directory = try ScratchDirectory()
        var request = try request(["sim:vendor-ctrlpt?fleet=6", "sim:vendor-ctrlpt?fleet=6"], in: directory)
        request.line.concurrency = 2
        let ledger = MemoryBatchLedger()
        request.ledger = ledger
        let (events, error) = await collect(DFUKit.batch(request))
        XCTAssertNil(error)
        guard case let .finished(summary)? = events.last else { return XCTFail("no summary: \(events)") }
        XCTAssertEqual(summary.succeeded, 6)
        XCTAssertEqual(summary.radios.map(\.name), ["radio-1", "radio-2"])
        XCTAssertEqual(summary.radios.map(\.succeeded), [3, 3])
        let succeeded = ledger.records.filter { $0.result == .succeeded }
        XCTAssertEqual(succeeded.count, 6)
        XCTAssertEqual(Set(succeeded.map(\.device)).count, 6, "each device flashed once")
        XCTAssertEqual(Set(succeeded.compactMap(\.radio)), ["radio-1", "radio-2"])
        let started = events.compactMap { update -> String? in
            if case let .event(.deviceStarted(_, _, _, radio)) = update { radio } else { nil }
        }
        XCTAssertEqual(started.count, 6)
        XCTAssertEqual(Set(started), ["radio-1", "radio-2"])
    }

    func testTheOldSingleDeviceRequestStillNamesItsRadio() throws {
        let directory = try ScratchDirectory()
        var request = BatchRequest(profile: try Fixtures.profile("vendor-ctrlpt"),
                                   package: try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory, size: 6_000)),
                                   device: "bluez:hci3")
        XCTAssertEqual(request.transports, ["bluez:hci3"])
        XCTAssertEqual(try Preflight.batch(request).radios.map(\.name), ["hci3"])
        request.device = "sim:vendor-ctrlpt?fleet=2"
        XCTAssertEqual(request.transports, ["sim:vendor-ctrlpt?fleet=2"])
    }

    func testRadioListsAreSplitAndNamed() throws {
        let directory = try ScratchDirectory()
        let lists: [([String], [String], [String])] = [
            (["bluez:hci0,hci1"], ["hci0", "hci1"], ["bluez:hci0", "bluez:hci1"]),
            (["hci:tcp:127.0.0.1:9001", "hci:tcp:127.0.0.1:9002"], ["radio-1", "radio-2"],
             ["hci:tcp:127.0.0.1:9001", "hci:tcp:127.0.0.1:9002"]),
            (["bluez:hci0", "hci:user:1", "hci:unix:/run/c.sock"], ["hci0", "hci1", "radio-3"],
             ["bluez:hci0", "hci:user:1", "hci:unix:/run/c.sock"]),
            (["sim:vendor-ctrlpt?fleet=2", "sim:vendor-ctrlpt?fleet=2"], ["radio-1", "radio-2"],
             ["sim:vendor-ctrlpt?fleet=2", "sim:vendor-ctrlpt?fleet=2"]),
        ]
        for (transports, names, devices) in lists {
            let plan = try Preflight.batch(try request(transports, in: directory))
            XCTAssertEqual(plan.radios.map(\.name), names, "\(transports)")
            XCTAssertEqual(plan.radios.map(\.device), devices, "\(transports)")
        }
    }

    func testBadRadiosAreRefusedBeforeAnythingIsOpened() async throws {
        let directory = try ScratchDirectory()
        let refusals: [([String], String)] = [
            ([], "a batch needs its radios"),
            (["bluez:hci0,"], "bluez:hci0,: an empty adapter name (a station's adapters are listed as bluez:hci0,hci1)"),
            (["bluez:hci0,eth1"], "'eth1' is not an adapter name like hci0"),
            (["bluez:hci0", "bluez:hci0"], "bluez:hci0 is given twice: one adapter is one radio"),
            (["bluez:hci0,hci0"], "bluez:hci0 is given twice"),
            (["bluez:hci0,hci1", "hci:user:1"], "two radios are named hci1 (bluez:hci1 and hci:user:1)"),
            (["sim:vendor-ctrlpt?fleet=2", "bluez:hci0"], "the radios mix simulated clocks (sim:vendor-ctrlpt?fleet=2)"),
            (["bluez:hci0/C0:FF:EE:00:00:01", "bluez:hci1"], "a station's radios name no device"),
            (["hci:carrier-pigeon:1", "bluez:hci1"], "carrier-pigeon"),
        ]
        for (transports, expected) in refusals {
            var request = try request(transports, in: directory)
            let ledger = MemoryBatchLedger()
            request.ledger = ledger
            request.recordDirectory = directory.file("records-\(transports.count)")
            do {
                _ = try Preflight.batch(request)
                XCTFail("\(transports) passed the preflight")
            } catch {
                XCTAssertEqual(error.kind, .usage, "\(transports)")
                XCTAssertTrue(error.message.contains(expected), "\(transports): \(error.message)")
            }
            // The library's own way in refuses it the same, with nothing sent, claimed or created.
            let (events, failure) = await collect(DFUKit.batch(request))
            XCTAssertTrue(events.isEmpty, "\(transports): \(events)")
            XCTAssertEqual(failure?.kind, .usage)
            XCTAssertTrue(failure?.message.contains(expected) == true, "\(transports): \(failure?.message ?? "")")
            XCTAssertTrue(ledger.records.isEmpty)
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("records-\(transports.count)")),
                           "\(transports): the record directory was made")
        }
    }

    func testAListOfAdaptersIsForBatchesOnly() throws {
        let locator = try DeviceLocator(parsing: "bluez:hci0,hci1")
        XCTAssertThrowsError(try TransportRegistry.standard.open(locator)) { error in
            XCTAssertTrue("\(error)".contains("only 'batch run' takes several"), "\(error)")
        }
    }
}
