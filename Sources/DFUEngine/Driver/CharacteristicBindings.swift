import DFUGATT
import DFUProfile

/// The profile's characteristic roles bound to what discovery found on the device. A role the
/// device lacks is an error unless the profile marks it `optional`; then `present.<role>` is
/// false and using it fails with a clear message.
struct CharacteristicBindings {
    private var byName: [String: GATTCharacteristic] = [:]
    private var byHandle: [UInt16: String] = [:]
    private var missing: [String: FlashError] = [:]

    init(profile: Profile, services: [GATTService], address: String) throws(FlashError) {
        for spec in profile.characteristics {
            do {
                let found = try Self.find(spec, in: services, profile: profile, address: address)
                byName[spec.name] = found
                byHandle[found.valueHandle] = spec.name
            } catch {
                guard spec.optional else { throw error }
                missing[spec.name] = error
            }
        }
    }

    private static func find(_ spec: CharacteristicSpec, in services: [GATTService], profile: Profile,
                             address: String) throws(FlashError) -> GATTCharacteristic {
        guard let service = services.first(where: { $0.uuid == spec.service }) else {
            throw FlashError(kind: .incompatibleDevice,
                             message: "the device has no service \(spec.service) (characteristic '\(spec.name)')",
                             address: address, location: spec.location,
                             hint: "is it in its bootloader, and is '\(profile.name)' the right profile?")
        }
        guard let found = service.characteristics.first(where: { $0.uuid == spec.uuid }) else {
            throw FlashError(kind: .incompatibleDevice,
                             message: "service \(spec.service) has no characteristic \(spec.uuid) ('\(spec.name)')",
                             address: address, location: spec.location)
        }
        let lacking = spec.requiredProperties.filter { !found.properties.contains(gattProperty($0)) }
        guard lacking.isEmpty else {
            throw FlashError(kind: .incompatibleDevice,
                             message: "characteristic '\(spec.name)' (\(spec.uuid)) lacks \(lacking.map(\.rawValue).sorted().joined(separator: ", ")); it has \(found.properties.names.joined(separator: ", "))",
                             address: address, location: spec.location)
        }
        return found
    }

    /// The characteristic for a role, or the reason it is missing.
    func require(_ name: String) throws(FlashError) -> GATTCharacteristic {
        if let found = byName[name] { return found }
        throw missing[name] ?? FlashError(kind: .profile, message: "no characteristic role '\(name)'")
    }

    func characteristic(_ name: String) -> GATTCharacteristic? { byName[name] }
    func name(forHandle handle: UInt16) -> String { byHandle[handle] ?? "" }

    /// `present` as profiles see it.
    func presentRecord(_ profile: Profile) -> Value {
        .record(Dictionary(uniqueKeysWithValues: profile.characteristics.map { ($0.name, .boolean(byName[$0.name] != nil)) }))
    }

    static func gattProperty(_ property: CharacteristicSpec.Property) -> GATTProperties {
        switch property {
        case .read: return .read
        case .write: return .write
        case .writeWithoutResponse: return .writeWithoutResponse
        case .notify: return .notify
        case .indicate: return .indicate
        }
    }
}
