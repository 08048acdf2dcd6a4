import DFUBytes
import DFUGATT
import DFUProfile

/// A connection to the generic device: its GATT database is the profile's characteristics;
/// each complete request written is answered (see `GenericAnswers`) with notifications cut to
/// ATT_MTU - 3 bytes. After answering a command that reboots the device (`reboots: true`, no
/// `when`), it drops the link, as a rebooting device does.
final class GenericDeviceLink: GATTLink {
    let address: DeviceAddress
    private let device: GenericDevice
    private let database: GenericDatabase
    private let answers: GenericAnswers
    private var requests: [String: MessageStream] = [:]
    private var pending: [GATTNotification] = []
    private var rebootsAfterAnswer = false
    private var connected = true

    init(device: GenericDevice, address: DeviceAddress) {
        self.device = device
        self.address = address
        database = GenericDatabase(profile: device.profile)
        answers = device.answers
    }

    var mtu: Int { device.mtu }
    var now: Duration { device.clock.now }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        try requireConnected()
        device.clock.advance(by: GenericDevice.connectionInterval * 4)
        return database.services
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        try requireConnected()
        device.clock.advance(by: GenericDevice.connectionInterval)
        return []
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        try requireConnected()
        let interval = GenericDevice.connectionInterval
        device.clock.advance(by: type == .withResponse ? interval : interval / 4)
        guard let role = database.role(of: characteristic.valueHandle) else { return }
        var stream = requests[role] ?? MessageStream(framing: answers.framing(of: role))
        guard case let .success(messages) = stream.append(value) else {
            requests[role] = MessageStream(framing: answers.framing(of: role))
            return
        }
        requests[role] = stream
        for (message, _) in messages {
            guard let answer = answers.answer(message, writtenTo: role),
                  let handle = database.handle(of: answer.characteristic) else { continue }
            var time = max(now, pending.last?.receivedAt ?? .zero) + interval
            for segment in Segmenter.segments(of: answer.bytes, maximumSize: Segmenter.attPayloadSize(mtu: mtu)) {
                pending.append(GATTNotification(valueHandle: handle, value: segment, receivedAt: time))
                time += interval / 4
            }
            rebootsAfterAnswer = rebootsAfterAnswer || answer.reboots
        }
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try requireConnected()
        device.clock.advance(by: GenericDevice.connectionInterval)
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        try requireConnected()
        guard let next = pending.first else {
            if rebootsAfterAnswer {
                device.clock.advance(by: GenericDevice.connectionInterval)
                connected = false
                throw GATTError(.disconnected, address: address.description,
                                detail: "the generic device rebooted after answering, as the profile says it does")
            }
            device.clock.advance(to: deadline)
            return nil
        }
        guard next.receivedAt <= deadline else {
            device.clock.advance(to: deadline)
            return nil
        }
        pending.removeFirst()
        device.clock.advance(to: next.receivedAt)
        return next
    }

    func sleep(until deadline: Duration) async throws(GATTError) {
        device.clock.advance(to: deadline)
    }

    func disconnect() async {
        connected = false
    }

    private func requireConnected() throws(GATTError) {
        guard connected else { throw GATTError(.disconnected, address: address.description, detail: "not connected") }
    }
}

/// The profile's characteristics as a GATT database: one service per service UUID, each
/// characteristic with the properties it needs (those it requires, its write type, notify when
/// something is notified from it).
struct GenericDatabase {
    let services: [GATTService]
    private let roles: [UInt16: String]

    init(profile: Profile) {
        var services: [GATTService] = []
        var roles: [UInt16: String] = [:]
        var handle: UInt16 = 0x0010
        let notified = Set(profile.commands.values.compactMap { $0.response?.message.characteristic }
                           + profile.notifications.values.map(\.characteristic))
        for spec in profile.characteristics {
            var properties = GATTProperties()
            for property in spec.requiredProperties { properties.insert(Self.property(property)) }
            properties.insert(spec.writeType == .withResponse ? .write : .writeWithoutResponse)
            if notified.contains(spec.name), properties.isDisjoint(with: [.notify, .indicate]) {
                properties.insert(spec.prefersIndications ? .indicate : .notify)
            }
            handle += 3
            let characteristic = GATTCharacteristic(service: spec.service, uuid: spec.uuid, valueHandle: handle,
                                                    properties: properties)
            roles[handle] = spec.name
            if let index = services.firstIndex(where: { $0.uuid == spec.service }) {
                services[index].characteristics.append(characteristic)
            } else {
                services.append(GATTService(uuid: spec.service, characteristics: [characteristic]))
            }
        }
        self.services = services
        self.roles = roles
    }

    func role(of handle: UInt16) -> String? { roles[handle] }

    func handle(of role: String) -> UInt16? { roles.first { $0.value == role }?.key }

    /// The GATT property a profile names (both spell them as the Core specification does).
    private static func property(_ property: CharacteristicSpec.Property) -> GATTProperties {
        let all: [GATTProperties] = [.broadcast, .read, .writeWithoutResponse, .write, .notify, .indicate]
        return all.first { $0.names == [property.rawValue] } ?? []
    }
}
