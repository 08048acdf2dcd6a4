import DFUGATT

/// A transport whose links refuse to write (or connect) once the station's claim on the device
/// is no longer sure: every write, notification subscription and connection first asks the
/// `LeaseGate`. Reads and waits go through, they change nothing on the device.
package final class LeaseGatedTransport: GATTTransport {
    private let base: any GATTTransport
    private let gate: LeaseGate

    /// Wraps `base`; every write and connection first asks `gate`.
    package init(_ base: any GATTTransport, gate: LeaseGate) {
        self.base = base
        self.gate = gate
    }

    package var name: String { base.name }
    package var now: Duration { base.now }
    package var soleDevice: DeviceAddress? { base.soleDevice }

    package func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        try await base.scan(timeout: timeout)
    }

    package func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        try gate.check()
        return LeaseGatedLink(try await base.connect(to: address, timeout: timeout), gate: gate)
    }

    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        try await base.waitForAdvertisement(from: address, timeout: timeout)
    }

    package func sleep(until deadline: Duration) async {
        await base.sleep(until: deadline)
    }
}

/// A link that asks its `LeaseGate` before every write.
final class LeaseGatedLink: LinkWrapper {
    private let base: any GATTLink
    private let gate: LeaseGate

    init(_ base: any GATTLink, gate: LeaseGate) {
        self.base = base
        self.gate = gate
    }

    var wrapped: any GATTLink { base }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        try await base.discoverServices()
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        try await base.read(characteristic)
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        try gate.check()
        try await base.write(value, to: characteristic, type: type)
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try gate.check()
        try await base.setNotifications(enabled: enabled, for: characteristic, preferring: kind)
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        try await base.nextNotification(until: deadline)
    }

    func sleep(until deadline: Duration) async throws(GATTError) {
        try await base.sleep(until: deadline)
    }

    func disconnect() async {
        await base.disconnect()
    }
}
