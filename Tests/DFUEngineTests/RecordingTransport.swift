import DFUBytes
import DFUGATT

/// A transport that passes everything to another one and records every write: what the engine
/// put on the air, for golden bytes and packet counts.
final class RecordingTransport: GATTTransport {
    struct Write: Equatable {
        var characteristic: BluetoothUUID
        var value: [UInt8]
        var type: GATTWriteType
        var time: Duration
    }

    private let inner: any GATTTransport
    private(set) var writes: [Write] = []
    private(set) var reads: [BluetoothUUID] = []

    init(_ inner: any GATTTransport) {
        self.inner = inner
    }

    var name: String { inner.name }
    var now: Duration { inner.now }

    func writes(to characteristic: BluetoothUUID) -> [Write] {
        writes.filter { $0.characteristic == characteristic }
    }

    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        try await inner.scan(timeout: timeout)
    }

    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        RecordingLink(try await inner.connect(to: address, timeout: timeout), recorder: self)
    }

    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        try await inner.waitForAdvertisement(from: address, timeout: timeout)
    }

    func sleep(until deadline: Duration) async {
        await inner.sleep(until: deadline)
    }

    fileprivate func record(_ write: Write) { writes.append(write) }
    fileprivate func recordRead(_ characteristic: BluetoothUUID) { reads.append(characteristic) }
}

private final class RecordingLink: GATTLink {
    private let inner: any GATTLink
    private let recorder: RecordingTransport

    init(_ inner: any GATTLink, recorder: RecordingTransport) {
        self.inner = inner
        self.recorder = recorder
    }

    var address: DeviceAddress { inner.address }
    var mtu: Int { inner.mtu }
    var now: Duration { inner.now }

    func discoverServices() async throws(GATTError) -> [GATTService] { try await inner.discoverServices() }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        recorder.recordRead(characteristic.uuid)
        return try await inner.read(characteristic)
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        let time = inner.now
        try await inner.write(value, to: characteristic, type: type)
        recorder.record(RecordingTransport.Write(characteristic: characteristic.uuid, value: value, type: type, time: time))
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try await inner.setNotifications(enabled: enabled, for: characteristic, preferring: kind)
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        try await inner.nextNotification(until: deadline)
    }

    func sleep(until deadline: Duration) async throws(GATTError) { try await inner.sleep(until: deadline) }

    func disconnect() async { await inner.disconnect() }
}
