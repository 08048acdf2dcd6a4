import DFUKit
import Foundation
import XCTest

/// A transport added by implementing `TransportScheme`: here a scheme that reaches the
/// simulator under another name and counts what it opened.
private final class CountingScheme: TransportScheme, @unchecked Sendable {
    private let lock = NSLock()
    private var opened: [String] = []

    var name: String { "bench" }
    var summary: String { "the simulator on the bench" }
    var targets: [String] { lock.withLock { opened } }

    func check(target: String) throws(DFUKitError) {
        guard !target.contains(" ") else { throw DFUKitError(kind: .usage, message: "bench: no spaces in '\(target)'") }
    }

    func open(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport {
        lock.withLock { opened.append(request.target) }
        return try SimulatorScheme().open(request)
    }
}

final class TransportRegistryTests: XCTestCase {
    func testTheStandardRegistryHoldsTheBuiltInSchemes() {
        XCTAssertEqual(TransportRegistry.standard.names, ["bluez", "hci", "serial", "sim", "udp"])
        XCTAssertTrue(TransportRegistry.standard.scheme(named: "serial") is SerialScheme)
        XCTAssertTrue(TransportRegistry.standard.scheme(named: "udp") is UDPScheme)
        XCTAssertTrue(TransportRegistry.standard.scheme(named: "sim") is SimulatorScheme)
        XCTAssertTrue(TransportRegistry.standard.scheme(named: "hci") is HCIScheme)
        XCTAssertTrue(TransportRegistry.standard.scheme(named: "bluez") is BlueZScheme)
    }

    func testARegisteredSchemeFlashes() async throws {
        let scheme = CountingScheme()
        let registry = TransportRegistry(schemes: [SimulatorScheme()])
        registry.register(scheme)
        let directory = try ScratchDirectory()
        var request = FlashRequest(package: try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory)),
                                   profile: try Fixtures.profile("vendor-ctrlpt"), device: "bench:vendor-ctrlpt/C0:FF:EE:00:00:01")
        request.registry = registry
        let (events, error) = await collect(DFUKit.flash(request))
        XCTAssertNil(error)
        guard case let .finished(report)? = events.last else { return XCTFail("no outcome") }
        XCTAssertEqual(report.status, .verified)
        XCTAssertEqual(scheme.targets, ["vendor-ctrlpt"], "the address is not part of the target")

        request.device = "bench:vendor ctrlpt"
        let (_, refused) = await collect(DFUKit.flash(request))
        XCTAssertEqual(refused?.kind, .usage)
        XCTAssertEqual(refused?.message, "bench: no spaces in 'vendor ctrlpt'")
        XCTAssertEqual(scheme.targets.count, 1, "a target the scheme refuses is not opened")
    }

    func testASchemeWithoutBatchSupportRefusesBatches() async throws {
        let registry = TransportRegistry(schemes: [CountingScheme()])
        let directory = try ScratchDirectory()
        var request = BatchRequest(profile: try Fixtures.profile("vendor-ctrlpt"),
                                   package: try FirmwarePackage.open(path: try Fixtures.vendorPackage(in: directory)),
                                   device: "bench:vendor-ctrlpt")
        request.registry = registry
        let (_, error) = await collect(DFUKit.batch(request))
        XCTAssertEqual(error?.kind, .usage)
        XCTAssertTrue(error?.message.contains("cannot run batches") ?? false, error?.message ?? "")
    }

    func testLocatorsSplitSchemeTargetAndAddress() throws {
        let located = try DeviceLocator(parsing: "sim:vendor-ctrlpt?state=/tmp/x.json/C0:FF:EE:00:00:02")
        XCTAssertEqual(located.scheme, "sim")
        XCTAssertEqual(located.target, "vendor-ctrlpt?state=/tmp/x.json")
        XCTAssertEqual(located.address?.description, "C0:FF:EE:00:00:02")
        XCTAssertEqual(located.description, "sim:vendor-ctrlpt?state=/tmp/x.json/C0:FF:EE:00:00:02")
        let socket = try DeviceLocator(parsing: "hci:unix:/run/hci.sock")
        XCTAssertEqual(socket.target, "unix:/run/hci.sock")
        XCTAssertNil(socket.address)
        XCTAssertThrowsError(try DeviceLocator(parsing: "vendor-ctrlpt"))
        XCTAssertThrowsError(try DeviceLocator(parsing: "sim:"))
        // Meant as an address, but none: refused, not read as part of the target.
        XCTAssertThrowsError(try DeviceLocator(parsing: "sim:vendor-ctrlpt/zz")) { error in
            XCTAssertEqual((error as? DFUKitError)?.message,
                           "'zz' in device 'sim:vendor-ctrlpt/zz' is not a device address like C0:FF:EE:00:00:01")
        }
        XCTAssertThrowsError(try DeviceLocator(parsing: "hci:tcp:127.0.0.1:9002/C0:FF"))
        XCTAssertEqual(try DeviceLocator(parsing: "sim:vendor-ctrlpt?journal=/tmp/j").target, "vendor-ctrlpt?journal=/tmp/j")
    }

    func testSimulatedClockIsTheSchemesToSay() {
        let sim = SimulatorScheme()
        XCTAssertTrue(sim.usesSimulatedClock(target: "vendor-ctrlpt?mtu=247"))
        XCTAssertTrue(sim.usesSimulatedClock(target: "vendor-ctrlpt?realtime=2"), "two simulated seconds per wall second")
        XCTAssertFalse(sim.usesSimulatedClock(target: "vendor-ctrlpt?realtime=1"))
        XCTAssertFalse(HCIScheme().usesSimulatedClock(target: "tcp:127.0.0.1:9002"))
    }
}
