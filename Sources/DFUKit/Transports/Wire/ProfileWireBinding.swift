import DFUGATT
import DFUProfile
import DFUWire

extension WireBinding {
    /// The binding a profile's `links:` entry of `kind` declares, with a device string's
    /// options: the characteristics it carries or answers on (handles assigned here, since a
    /// wire has no GATT database), the writes it carries, the framing.
    /// - Throws: `.usage` when the profile has no such entry.
    public static func make(profile: Profile, kind: WireLinkKind, options: WireLinkOptions,
                            device: String) throws(DFUKitError) -> WireBinding {
        let spec = try WireBinding.spec(profile: profile, kind: kind, device: device)
        try options.check(against: spec, profile: profile.name, device: device)
        var handles: [String: UInt16] = [:]
        var services: [GATTService] = []
        var nextHandle: UInt16 = 3
        // Only what the link carries or answers on is there: another characteristic (Nordic's
        // buttonless DFU in the application) does not exist on this link.
        let onLink = Set(spec.carries.map(\.characteristic) + [spec.answers])
        for characteristic in profile.characteristics where onLink.contains(characteristic.name) {
            let handle = nextHandle
            nextHandle += 2
            handles[characteristic.name] = handle
            let properties = Self.properties(of: characteristic, answers: characteristic.name == spec.answers)
            let carried = GATTCharacteristic(service: characteristic.service, uuid: characteristic.uuid, valueHandle: handle,
                                             properties: properties)
            if let index = services.firstIndex(where: { $0.uuid == characteristic.service }) {
                services[index].characteristics.append(carried)
            } else {
                services.append(GATTService(uuid: characteristic.service, characteristics: [carried]))
            }
        }
        var writes: [UInt16: WireWrite] = [:]
        for carried in spec.carries {
            if let handle = handles[carried.characteristic] { writes[handle] = WireWrite(prefix: carried.prefix) }
        }
        let framing = WireFramingCatalog.framing(spec.framing, lineLength: options.lineLength ?? spec.lineLength)
        return WireBinding(medium: kind == .serial ? .serial : .udp, framing: framing, services: services, writes: writes,
                           responseHandle: handles[spec.answers] ?? 0,
                           idleTimeout: spec.idleTimeout, deviceBuffer: options.buffer ?? spec.buffer)
    }

    /// The profile's entry for `kind`, or a refusal that says what to do.
    /// - Throws: `.usage`.
    public static func spec(profile: Profile, kind: WireLinkKind, device: String) throws(DFUKitError) -> WireLinkSpec {
        guard let spec = profile.links[kind] else {
            let others = profile.links.keys.map(\.rawValue).sorted()
            let has = others.isEmpty ? "it runs over Bluetooth only" : "it declares \(others.joined(separator: ", ")) only"
            throw DFUKitError(kind: .usage, message: "profile '\(profile.name)' declares no \(kind.rawValue) link "
                              + "(links.\(kind.rawValue)): \(has), so it cannot say how its messages travel on \(device); "
                              + "use a profile with a links.\(kind.rawValue) entry, or add one (profiles/README.md, section links)")
        }
        return spec
    }

    /// What the device's characteristic does on the wire: what the profile requires, how it
    /// writes, and notify for the one the device answers on.
    private static func properties(of characteristic: CharacteristicSpec, answers: Bool) -> GATTProperties {
        var properties: GATTProperties = []
        for property in characteristic.requiredProperties {
            switch property {
            case .read: properties.insert(.read)
            case .write: properties.insert(.write)
            case .writeWithoutResponse: properties.insert(.writeWithoutResponse)
            case .notify: properties.insert(.notify)
            case .indicate: properties.insert(.indicate)
            }
        }
        properties.insert(characteristic.writeType == .withResponse ? .write : .writeWithoutResponse)
        if answers { properties.insert(.notify) }
        return properties
    }
}
