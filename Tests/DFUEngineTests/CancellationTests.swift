import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import XCTest

/// A cancelled flash stops as cancelled, whatever the waits under it return: never a resend
/// (a "retry") or a timeout.
final class CancellationTests: XCTestCase {
    /// Cancelled (Ctrl-C) while waiting for a notification after the first progress, over a
    /// link whose wait then gives up with "no notification", as the ATT client's does on a radio.
    func testCancellationMidTransferIsNotARetry() async throws {
        let (world, _) = try EngineTestSupport.vendorWorld()
        let transport = GivingUpTransport(world)
        let recorder = EventRecorder()
        let session = FlashSession(profile: try EngineTestSupport.vendorProfile(),
                                   images: [EngineTestSupport.image(size: 30_000)], transport: transport,
                                   address: nil) { event in
            recorder.append(event)
            if case .progress = event { transport.cancelDuringNextWait = true }
        }
        let report = await Task { await session.run() }.value
        let events = recorder.events
        XCTAssertTrue(events.contains { if case .progress = $0 { return true } else { return false } })
        XCTAssertFalse(events.contains { if case .retrying = $0 { return true } else { return false } },
                       "a cancellation was reported as a retry: \(events)")
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.kind, .cancelled, "\(String(describing: report.error))")
        XCTAssertEqual(report.deviceHolds, [.unchanged])
        XCTAssertEqual(report.retries, 0)
    }

    /// Cancelled while connecting: a cancellation, not a transport failure.
    func testCancellationWhileConnectingIsNotATransportError() async throws {
        let (world, _) = try EngineTestSupport.vendorWorld("realtime=1")
        let session = FlashSession(profile: try EngineTestSupport.vendorProfile(),
                                   images: [EngineTestSupport.image(size: 1_000)], transport: world,
                                   address: DeviceAddress(string: "C0:FF:EE:00:00:09"))
        let task = Task { await session.run() }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let report = await task.value
        XCTAssertEqual(report.error?.kind, .cancelled, "\(String(describing: report.error))")
        XCTAssertEqual(report.deviceHolds, [.unchanged])
    }
}

private final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [FlashEvent] = []
    func append(_ event: FlashEvent) { lock.lock(); stored.append(event); lock.unlock() }
    var events: [FlashEvent] { lock.lock(); defer { lock.unlock() }; return stored }
}

/// A transport whose links' notification waits return nil once their task is cancelled; told
/// to, it cancels the task during the next wait.
private final class GivingUpTransport: GATTTransport {
    let inner: any GATTTransport
    /// The next notification wait is interrupted: its task is cancelled while it waits.
    var cancelDuringNextWait = false
    init(_ inner: any GATTTransport) { self.inner = inner }
    var name: String { inner.name }
    var now: Duration { inner.now }
    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] { try await inner.scan(timeout: timeout) }
    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        GivingUpLink(try await inner.connect(to: address, timeout: timeout), transport: self)
    }
    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        try await inner.waitForAdvertisement(from: address, timeout: timeout)
    }
    func sleep(until deadline: Duration) async { await inner.sleep(until: deadline) }
}

private final class GivingUpLink: GATTLink {
    let inner: any GATTLink
    let transport: GivingUpTransport
    init(_ inner: any GATTLink, transport: GivingUpTransport) {
        self.inner = inner
        self.transport = transport
    }
    var address: DeviceAddress { inner.address }
    var mtu: Int { inner.mtu }
    var now: Duration { inner.now }
    func discoverServices() async throws(GATTError) -> [GATTService] { try await inner.discoverServices() }
    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] { try await inner.read(characteristic) }
    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        try await inner.write(value, to: characteristic, type: type)
    }
    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try await inner.setNotifications(enabled: enabled, for: characteristic, preferring: kind)
    }
    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        if transport.cancelDuringNextWait {
            transport.cancelDuringNextWait = false
            withUnsafeCurrentTask { $0?.cancel() }
        }
        if Task.isCancelled { return nil }
        return try await inner.nextNotification(until: deadline)
    }
    func sleep(until deadline: Duration) async throws(GATTError) { try await inner.sleep(until: deadline) }
    func disconnect() async { await inner.disconnect() }
}
