import DFUGATT

/// A simulated transport at wall-clock pace (`sim:NAME?realtime=1`): each operation returns
/// once as much real time passed as it took on the virtual clock. A simulated update then
/// takes as long as the real one would, so a person can watch it and interrupt it at any step
/// (scan, connect, transfer, reboot). A cancelled task stops waiting at once.
public final class RealtimeTransport: GATTTransport {
    private let inner: any GATTTransport
    private let pacer: RealtimePacer

    public init(_ inner: any GATTTransport) {
        self.inner = inner
        pacer = RealtimePacer { inner.now }
    }

    public var name: String { inner.name }
    public var now: Duration { inner.now }

    /// Listens for the whole `timeout`, as a radio does (the virtual world's scan ends once it
    /// heard every device it has).
    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        let deadline = inner.now + timeout
        let seen = try await pacer.paced { () throws(GATTError) in try await inner.scan(timeout: timeout) }
        await inner.sleep(until: deadline)
        await pacer.catchUp()
        return seen
    }

    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        let link = try await pacer.paced { () throws(GATTError) in try await inner.connect(to: address, timeout: timeout) }
        return RealtimeLink(link, pacer: pacer)
    }

    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        try await pacer.paced { () throws(GATTError) in try await inner.waitForAdvertisement(from: address, timeout: timeout) }
    }

    public func sleep(until deadline: Duration) async {
        await inner.sleep(until: deadline)
        await pacer.catchUp()
    }
}

/// A simulated link at wall-clock pace (made by `RealtimeTransport`).
final class RealtimeLink: GATTLink {
    private let inner: any GATTLink
    private let pacer: RealtimePacer

    init(_ inner: any GATTLink, pacer: RealtimePacer) {
        self.inner = inner
        self.pacer = pacer
    }

    var address: DeviceAddress { inner.address }
    var mtu: Int { inner.mtu }
    var now: Duration { inner.now }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        try await pacer.paced { () throws(GATTError) in try await inner.discoverServices() }
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        try await pacer.paced { () throws(GATTError) in try await inner.read(characteristic) }
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        try await pacer.paced { () throws(GATTError) in try await inner.write(value, to: characteristic, type: type) }
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try await pacer.paced { () throws(GATTError) in
            try await inner.setNotifications(enabled: enabled, for: characteristic, preferring: kind)
        }
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        try await pacer.paced { () throws(GATTError) in try await inner.nextNotification(until: deadline) }
    }

    func sleep(until deadline: Duration) async throws(GATTError) {
        try await pacer.paced { () throws(GATTError) in try await inner.sleep(until: deadline) }
    }

    func disconnect() async {
        await inner.disconnect()
    }
}

extension RealtimePacer {
    /// Runs `operation` on the virtual clock, then waits until the wall clock caught up, with
    /// its result or its error.
    func paced<T>(_ operation: () async throws(GATTError) -> T) async throws(GATTError) -> T {
        let result: Result<T, GATTError>
        do {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        await catchUp()
        return try result.get()
    }
}
