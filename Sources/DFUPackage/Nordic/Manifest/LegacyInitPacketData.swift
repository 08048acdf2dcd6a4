/// `init_packet_data` of a legacy (`dfu_version` 0.5) manifest image: the init packet's fields
/// repeated in JSON. Every key is optional; absent keys are `nil`.
public struct LegacyInitPacketData: Sendable, Equatable {
    package let deviceType: Int64?
    package let deviceRevision: Int64?
    package let applicationVersion: Int64?
    package let softDeviceRequirements: [Int64]?
    package let firmwareCRC16: Int64?

    /// `init_packet_data` with the keys given; nil keys are absent.
    public init(deviceType: Int64? = nil, deviceRevision: Int64? = nil, applicationVersion: Int64? = nil,
                softDeviceRequirements: [Int64]? = nil, firmwareCRC16: Int64? = nil) {
        self.deviceType = deviceType
        self.deviceRevision = deviceRevision
        self.applicationVersion = applicationVersion
        self.softDeviceRequirements = softDeviceRequirements
        self.firmwareCRC16 = firmwareCRC16
    }

    /// The fields that differ from `packet`, as "key: manifest X, .dat Y" sentences.
    package func differences(from packet: LegacyInitPacket) -> [String] {
        var result: [String] = []
        func compare(_ key: String, _ manifest: Int64?, _ actual: Int64) {
            if let manifest, manifest != actual { result.append("\(key): manifest \(manifest), .dat \(actual)") }
        }
        compare("device_type", deviceType, Int64(packet.deviceType))
        compare("device_revision", deviceRevision, Int64(packet.deviceRevision))
        compare("application_version", applicationVersion, Int64(packet.applicationVersion))
        compare("firmware_crc16", firmwareCRC16, Int64(packet.firmwareCRC16))
        if let softDeviceRequirements, softDeviceRequirements != packet.softDeviceRequirements.map(Int64.init) {
            result.append("softdevice_req: manifest \(softDeviceRequirements), .dat \(packet.softDeviceRequirements)")
        }
        return result
    }
}
