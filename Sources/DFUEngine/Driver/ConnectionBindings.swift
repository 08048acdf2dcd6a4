import DFUBytes
import DFUGATT
import DFUProfile

/// The profile's characteristics bound, once per connection, to what discovery found: a write
/// target (handle and write type) and segment size for each, and which role a notification's
/// handle belongs to. A role the device lacks is an error unless the profile marks it
/// `optional`; then `present.<role>` is false and using it fails with a clear message.
struct ConnectionBindings {
    /// One characteristic as the engine uses it on this connection.
    struct Bound {
        var target: WriteTarget
        /// Bytes per ATT write: ATT_MTU - 3, or the profile's fixed size within it.
        var segmentSize: Int
        /// The characteristic's length-header framing, if it has one.
        var framing: LengthHeaderFormat?
    }

    private let bound: [String: Bound]
    private let missing: [String: FlashError]
    private let profileName: String
    /// `present` as profiles see it.
    let presentRecord: Value

    init(profile: Profile, services: [GATTService], address: String, mtu: Int,
         writeTypes: [String: GATTWriteType]) throws(FlashError) {
        profileName = profile.name
        var bound: [String: Bound] = [:]
        var missing: [String: FlashError] = [:]
        for spec in profile.characteristics {
            do {
                let found = try Self.find(spec, in: services, profile: profile, address: address)
                let framing = spec.framing.flatMap { profile.framings[$0]?.format }
                bound[spec.name] = Bound(
                    target: WriteTarget(role: spec.name, characteristic: found,
                                        type: writeTypes[spec.name] ?? GATTWriteType(spec.writeType),
                                        minimumInterval: spec.writeInterval),
                    segmentSize: Self.segmentSize(spec, mtu: mtu), framing: framing)
            } catch {
                guard spec.optional else { throw error }
                missing[spec.name] = error
            }
        }
        self.bound = bound
        self.missing = missing
        presentRecord = .record(Dictionary(uniqueKeysWithValues: profile.characteristics.map {
            ($0.name, .boolean(bound[$0.name] != nil))
        }))
    }

    /// The bound characteristic for a role, or why it is missing.
    func require(_ role: String) throws(FlashError) -> Bound {
        if let found = bound[role] { return found }
        throw missing[role] ?? FlashError(kind: .profile, message: "profile '\(profileName)' has no characteristic '\(role)'")
    }

    func characteristic(_ role: String) -> GATTCharacteristic? { bound[role]?.target.characteristic }

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

    private static func segmentSize(_ spec: CharacteristicSpec, mtu: Int) -> Int {
        let attPayload = Segmenter.attPayloadSize(mtu: mtu)
        let size: Int
        switch spec.segmentSize {
        case .mtu: size = attPayload
        case let .fixed(fixed): size = max(1, min(fixed, attPayload))
        }
        return max(spec.segmentMultiple, size / spec.segmentMultiple * spec.segmentMultiple)
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
