import DFUBytes
import DFUGATT

/// A `GATTLink` over an `ATTClient`: what the engine runs on once a transport (the userspace
/// HCI host, BlueZ) has an ATT bearer to a device.
///
/// GATT procedures (Core spec Vol 3, Part G, 4): Exchange MTU on connection; Discover All
/// Primary Services (Read By Group Type «Primary Service» until Attribute Not Found);
/// Discover All Characteristics of a Service (Read By Type «Characteristic»); Discover All
/// Characteristic Descriptors (Find Information) for characteristics that notify or
/// indicate, to find their Client Characteristic Configuration; Read Characteristic Value and
/// Read Long Characteristic Values; Write Characteristic Value and Write Without Response;
/// notifications and indications through the CCCD.
///
/// Time is `clock` (real time since the link was made, by default). Used by one task at a
/// time, like every `GATTLink`.
package final class ATTGATTLink: GATTLink {
    package let address: DeviceAddress
    package let client: ATTClient
    private let clock: any ATTClock
    /// Characteristics found by the last discovery, by value handle.
    private var discovered: [UInt16: DiscoveredCharacteristic] = [:]
    /// Set by the transport that made the link: what its stack granted (`linkGrant` adds the
    /// ATT_MTU the exchange settled on).
    package var grantReporter: (@Sendable () async -> LinkGrant?)?

    private struct DiscoveredCharacteristic {
        var properties: GATTProperties
        var configurationHandle: UInt16?
    }

    /// The largest attribute value GATT allows (Vol 3, Part F, 3.2.9).
    package static let maximumAttributeValueLength = 512

    /// A link over an existing client; its clock is the client's.
    package init(client: ATTClient, address: DeviceAddress) {
        self.client = client
        self.address = address
        self.clock = client.clock
    }

    /// Makes the client over `bearer` and exchanges the MTU.
    package static func connect(bearer: any ATTBearer, address: DeviceAddress,
                               transactionTimeout: Duration = .seconds(30),
                               clock: any ATTClock = ContinuousATTClock()) async throws(GATTError) -> ATTGATTLink {
        let client = ATTClient(bearer: bearer, address: address.description,
                               transactionTimeout: transactionTimeout, clock: clock)
        let link = ATTGATTLink(client: client, address: address)
        do {
            try await client.exchangeMTU()
        } catch {
            await client.close()
            throw error
        }
        return link
    }

    package var mtu: Int { client.mtu }
    package var now: Duration { clock.now }

    // MARK: - Discovery

    package func discoverServices() async throws(GATTError) -> [GATTService] {
        var found: [UInt16: DiscoveredCharacteristic] = [:]
        var services: [GATTService] = []
        for group in try await primaryServices() {
            let declarations = try await characteristics(in: group)
            var characteristics: [GATTCharacteristic] = []
            for (index, declaration) in declarations.enumerated() {
                var configurationHandle: UInt16?
                if !declaration.properties.isDisjoint(with: [.notify, .indicate]) {
                    let last = index + 1 < declarations.count
                        ? declarations[index + 1].declarationHandle - 1 : group.endGroupHandle
                    configurationHandle = try await configurationDescriptor(after: declaration.valueHandle, through: last)
                }
                found[declaration.valueHandle] = DiscoveredCharacteristic(properties: declaration.properties,
                                                                          configurationHandle: configurationHandle)
                characteristics.append(GATTCharacteristic(service: group.uuid, uuid: declaration.uuid,
                                                          valueHandle: declaration.valueHandle,
                                                          properties: declaration.properties))
            }
            services.append(GATTService(uuid: group.uuid, characteristics: characteristics))
        }
        discovered = found
        return services
    }

    private struct ServiceGroup {
        var handle: UInt16
        var endGroupHandle: UInt16
        var uuid: BluetoothUUID
    }

    /// Discover All Primary Services (Vol 3, Part G, 4.4.1).
    private func primaryServices() async throws(GATTError) -> [ServiceGroup] {
        var groups: [ServiceGroup] = []
        var start: UInt16 = 0x0001
        while true {
            let response: ATTReadByGroupTypeResponse
            do {
                response = try await client.request(ATTReadByGroupTypeRequest(
                    startingHandle: start, endingHandle: 0xFFFF, attributeGroupType: GATTAttributeTypes.primaryService))
            } catch {
                if Self.isAttributeNotFound(error) { return groups }
                throw error
            }
            for entry in response.attributeDataList {
                guard entry.attributeHandle >= start, entry.endGroupHandle >= entry.attributeHandle,
                      let uuid = BluetoothUUID(littleEndianBytes: entry.attributeValue),
                      entry.attributeValue.count == 2 || entry.attributeValue.count == 16 else {
                    throw malformedDatabase("the primary service at handle \(hexHandle(entry.attributeHandle)) "
                                            + "(group end \(hexHandle(entry.endGroupHandle)), "
                                            + "\(entry.attributeValue.count)-byte UUID) does not lie at or after "
                                            + "\(hexHandle(start)) with a 2- or 16-byte UUID")
                }
                groups.append(ServiceGroup(handle: entry.attributeHandle, endGroupHandle: entry.endGroupHandle, uuid: uuid))
            }
            let last = groups[groups.count - 1].endGroupHandle
            if last == 0xFFFF { return groups }
            start = last + 1
        }
    }

    /// Discover All Characteristics of a Service (Vol 3, Part G, 4.6.1).
    private func characteristics(in group: ServiceGroup) async throws(GATTError) -> [GATTCharacteristicDeclaration] {
        var declarations: [GATTCharacteristicDeclaration] = []
        guard group.handle < group.endGroupHandle else { return declarations }
        var start = group.handle + 1
        while true {
            let response: ATTReadByTypeResponse
            do {
                response = try await client.request(ATTReadByTypeRequest(
                    startingHandle: start, endingHandle: group.endGroupHandle,
                    attributeType: GATTAttributeTypes.characteristic))
            } catch {
                if Self.isAttributeNotFound(error) { return declarations }
                throw error
            }
            for entry in response.attributeDataList {
                guard (start...group.endGroupHandle).contains(entry.attributeHandle),
                      let declaration = GATTCharacteristicDeclaration(declarationHandle: entry.attributeHandle,
                                                                      value: entry.attributeValue),
                      declaration.valueHandle > entry.attributeHandle,
                      declaration.valueHandle <= group.endGroupHandle else {
                    throw malformedDatabase("the characteristic declaration at handle \(hexHandle(entry.attributeHandle)) "
                                            + "is not a 5- or 19-byte declaration inside its service "
                                            + "\(hexHandle(group.handle))-\(hexHandle(group.endGroupHandle))")
                }
                declarations.append(declaration)
            }
            let last = declarations[declarations.count - 1].declarationHandle
            if last >= group.endGroupHandle { return declarations }
            start = last + 1
        }
    }

    /// Discover All Characteristic Descriptors (Vol 3, Part G, 4.7.1) between a value handle
    /// and the end of its characteristic, stopping at the Client Characteristic Configuration.
    private func configurationDescriptor(after valueHandle: UInt16, through last: UInt16) async throws(GATTError) -> UInt16? {
        guard valueHandle < last else { return nil }
        var start = valueHandle + 1
        while true {
            let response: ATTFindInformationResponse
            do {
                response = try await client.request(ATTFindInformationRequest(startingHandle: start, endingHandle: last))
            } catch {
                if Self.isAttributeNotFound(error) { return nil }
                throw error
            }
            for information in response.information {
                guard (start...last).contains(information.handle) else {
                    throw malformedDatabase("Find Information for \(hexHandle(start))-\(hexHandle(last)) "
                                            + "returned handle \(hexHandle(information.handle))")
                }
                if information.type == GATTAttributeTypes.clientCharacteristicConfiguration {
                    return information.handle
                }
            }
            let lastFound = response.information[response.information.count - 1].handle
            if lastFound >= last { return nil }
            start = lastFound + 1
        }
    }

    // MARK: - Values

    /// Read Characteristic Value, then Read Long Characteristic Values (Read Blob) while
    /// each answer fills ATT_MTU - 1 bytes.
    package func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        let handle = characteristic.valueHandle
        var value = try await client.read(handle: handle)
        // A shorter answer is the whole value.
        guard value.count >= mtu - 1 else { return value }
        while value.count < Self.maximumAttributeValueLength {
            let part: [UInt8]
            do {
                part = try await client.readBlob(handle: handle, offset: UInt16(value.count))
            } catch {
                // The value was exactly as long as what was read.
                if case let .attError(code, _) = error.kind,
                   [ATTErrorCode.attributeNotLong.rawValue, ATTErrorCode.invalidOffset.rawValue].contains(code) {
                    break
                }
                throw error
            }
            value += part
            if part.count < mtu - 1 { break }
        }
        return value
    }

    /// Waits for the bearer to have sent every queued PDU (the HCI host: the controller reported
    /// the packets completed).
    package func writesCarried() async throws(GATTError) {
        try await client.bearer.sent()
    }

    package func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        switch type {
        case .withResponse: try await client.write(handle: characteristic.valueHandle, value: value)
        case .withoutResponse: try await client.writeCommand(handle: characteristic.valueHandle, value: value)
        }
    }

    /// Writes 0x0001 (notifications) or 0x0002 (indications: when preferred and the
    /// characteristic can indicate, or when it cannot notify) to the characteristic's Client
    /// Characteristic Configuration, or 0x0000.
    package func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                                 preferring kind: GATTValueUpdates) async throws(GATTError) {
        let known = discovered[characteristic.valueHandle]
        guard let configurationHandle = known?.configurationHandle else {
            throw GATTError(.unsupported, address: address.description,
                            detail: "characteristic \(characteristic.uuid) (value handle \(hexHandle(characteristic.valueHandle))) "
                                + "has no Client Characteristic Configuration descriptor"
                                + (discovered.isEmpty ? "; discover services first" : ""))
        }
        let properties = known?.properties ?? characteristic.properties
        var configuration: UInt16 = 0x0000
        if enabled {
            if let chosen = kind.configuration(for: properties) {
                configuration = chosen
            } else {
                throw GATTError(.unsupported, address: address.description,
                                detail: "characteristic \(characteristic.uuid) neither notifies nor indicates")
            }
        }
        try await client.write(handle: configurationHandle,
                               value: [UInt8(configuration & 0xFF), UInt8(configuration >> 8)])
    }

    package func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        guard let value = try await client.nextValue(until: deadline) else { return nil }
        return GATTNotification(valueHandle: value.attributeHandle, value: value.attributeValue, receivedAt: value.receivedAt)
    }

    package func sleep(until deadline: Duration) async throws(GATTError) {
        try? await clock.sleep(until: deadline)
    }

    package func disconnect() async {
        await client.close()
    }

    // MARK: - Helpers

    private static func isAttributeNotFound(_ error: GATTError) -> Bool {
        if case let .attError(code, _) = error.kind { return code == ATTErrorCode.attributeNotFound.rawValue }
        return false
    }

    private func malformedDatabase(_ detail: String) -> GATTError {
        GATTError(.unsupported, address: address.description, detail: "the device's GATT database is malformed: \(detail)")
    }
}
