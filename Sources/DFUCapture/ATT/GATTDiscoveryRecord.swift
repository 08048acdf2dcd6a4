import DFUATT
import DFUBytes
import DFUGATT

/// What the client discovered of the server's GATT database in one connection, collected from
/// the discovery responses as they pass; `services` puts it together at the end.
struct GATTDiscoveryRecord: Sendable {
    /// A primary service's handle range.
    struct ServiceRange: Sendable, Hashable {
        var start: UInt16
        var end: UInt16
        var uuid: BluetoothUUID
    }

    private(set) var serviceRanges: [ServiceRange] = []
    private(set) var declarations: [UInt16: GATTCharacteristicDeclaration] = [:]
    /// Descriptor handles found with type 0x2902.
    private(set) var clientConfigurationHandles: Set<UInt16> = []

    /// Whether any discovery response was seen.
    var isEmpty: Bool { serviceRanges.isEmpty && declarations.isEmpty && clientConfigurationHandles.isEmpty }

    mutating func addService(start: UInt16, end: UInt16, uuid: BluetoothUUID) {
        guard !serviceRanges.contains(where: { $0.start == start }) else { return }
        serviceRanges.append(ServiceRange(start: start, end: end, uuid: uuid))
    }

    mutating func addDeclaration(_ declaration: GATTCharacteristicDeclaration) {
        declarations[declaration.declarationHandle] = declaration
    }

    mutating func addDescriptor(handle: UInt16, type: BluetoothUUID) {
        if type == BluetoothUUIDs.clientConfiguration { clientConfigurationHandles.insert(handle) }
    }

    /// Whether `handle` was found to be a Client Characteristic Configuration descriptor.
    func isClientConfiguration(_ handle: UInt16) -> Bool { clientConfigurationHandles.contains(handle) }

    /// The value handle of the characteristic a descriptor at `handle` belongs to: the nearest
    /// characteristic declared before it.
    func valueHandle(owningDescriptor handle: UInt16) -> UInt16? {
        declarations.values.filter { $0.valueHandle < handle }.max { $0.valueHandle < $1.valueHandle }?.valueHandle
    }

    /// The services in handle order, each with the characteristics declared in its range; nil
    /// when nothing was discovered.
    var services: [GATTService]? {
        guard !serviceRanges.isEmpty || !declarations.isEmpty else { return nil }
        let sortedDeclarations = declarations.values.sorted { $0.declarationHandle < $1.declarationHandle }
        return serviceRanges.sorted { $0.start < $1.start }.map { range in
            let characteristics = sortedDeclarations
                .filter { $0.declarationHandle > range.start && $0.declarationHandle <= range.end }
                .map { GATTCharacteristic(service: range.uuid, uuid: $0.uuid, valueHandle: $0.valueHandle,
                                          properties: $0.properties) }
            return GATTService(uuid: range.uuid, characteristics: characteristics)
        }
    }
}
