import DFUGATT
import DFUProfile

/// The profile's characteristic roles bound to what discovery found on the device.
struct CharacteristicBindings {
    private var byName: [String: GATTCharacteristic] = [:]
    private var byHandle: [UInt16: String] = [:]

    init(profile: Profile, services: [GATTService], address: String) throws(FlashError) {
        for spec in profile.characteristics {
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
            let missing = spec.requiredProperties.filter { !found.properties.contains(Self.gattProperty($0)) }
            guard missing.isEmpty else {
                throw FlashError(kind: .incompatibleDevice,
                                 message: "characteristic '\(spec.name)' (\(spec.uuid)) lacks \(missing.map(\.rawValue).sorted().joined(separator: ", ")); it has \(found.properties.names.joined(separator: ", "))",
                                 address: address, location: spec.location)
            }
            byName[spec.name] = found
            byHandle[found.valueHandle] = spec.name
        }
    }

    func characteristic(_ name: String) -> GATTCharacteristic? { byName[name] }
    func name(forHandle handle: UInt16) -> String { byHandle[handle] ?? "" }

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
