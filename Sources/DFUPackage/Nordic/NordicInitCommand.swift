/// `InitCommand` in dfu-cc.proto: what the bootloader is told about the image before it arrives.
///
/// Every field is optional in proto2; an absent one is `nil` (or empty for repeated fields), so
/// that `inspect` shows exactly what the package holds.
public struct NordicInitCommand: Sendable, Equatable {
    /// 1 `fw_version`: the new firmware's version, compared with the device's for downgrades.
    public let firmwareVersion: UInt32?
    /// 2 `hw_version`: the hardware the image is for (e.g. 52 for nRF52832).
    package let hardwareVersion: UInt32?
    /// 3 `sd_req`: SoftDevice firmware IDs any one of which must be present (0xFFFE: none needed).
    package let softDeviceRequirements: [UInt32]
    /// 4 `type`.
    public let type: NordicFirmwareType?
    /// 5 `sd_size`.
    public let softDeviceSize: UInt32?
    /// 6 `bl_size`.
    public let bootloaderSize: UInt32?
    /// 7 `app_size`.
    public let applicationSize: UInt32?
    /// 8 `hash`.
    public let hash: NordicHash?
    /// 9 `is_debug`: a debug packet skips version checks.
    package let isDebug: Bool?
    /// 10 `boot_validation` (repeated).
    package let bootValidations: [NordicBootValidation]

    /// An init command with the fields given; nil and empty fields are absent.
    public init(firmwareVersion: UInt32? = nil, hardwareVersion: UInt32? = nil,
                softDeviceRequirements: [UInt32] = [], type: NordicFirmwareType? = nil,
                softDeviceSize: UInt32? = nil, bootloaderSize: UInt32? = nil, applicationSize: UInt32? = nil,
                hash: NordicHash? = nil, isDebug: Bool? = nil, bootValidations: [NordicBootValidation] = []) {
        self.firmwareVersion = firmwareVersion
        self.hardwareVersion = hardwareVersion
        self.softDeviceRequirements = softDeviceRequirements
        self.type = type
        self.softDeviceSize = softDeviceSize
        self.bootloaderSize = bootloaderSize
        self.applicationSize = applicationSize
        self.hash = hash
        self.isDebug = isDebug
        self.bootValidations = bootValidations
    }

    /// Decodes a serialized `InitCommand` (the payload of `Command` field 2). Unknown fields are
    /// skipped; offsets in errors are the slice's indices.
    public init(decoding bytes: ArraySlice<UInt8>) throws(NordicInitPacketError) {
        var firmwareVersion: UInt32?
        var hardwareVersion: UInt32?
        var softDeviceRequirements: [UInt32] = []
        var type: NordicFirmwareType?
        var softDeviceSize: UInt32?
        var bootloaderSize: UInt32?
        var applicationSize: UInt32?
        var hash: NordicHash?
        var isDebug: Bool?
        var bootValidations: [NordicBootValidation] = []

        var reader = ProtobufReader(bytes)
        while let field = try Self.next(&reader) {
            switch field.number {
            case 1: firmwareVersion = try field.uint32("InitCommand.fw_version")
            case 2: hardwareVersion = try field.uint32("InitCommand.hw_version")
            case 3: softDeviceRequirements += try field.repeatedUInt32("InitCommand.sd_req")
            case 4: type = NordicFirmwareType(rawValue: try field.enumeration("InitCommand.type"))
            case 5: softDeviceSize = try field.uint32("InitCommand.sd_size")
            case 6: bootloaderSize = try field.uint32("InitCommand.bl_size")
            case 7: applicationSize = try field.uint32("InitCommand.app_size")
            case 8: hash = try Self.decodeHash(try field.message("InitCommand.hash"))
            case 9: isDebug = try field.bool("InitCommand.is_debug")
            case 10: bootValidations.append(try Self.decodeBootValidation(try field.message("InitCommand.boot_validation")))
            default: continue
            }
        }
        self.init(firmwareVersion: firmwareVersion, hardwareVersion: hardwareVersion,
                  softDeviceRequirements: softDeviceRequirements, type: type, softDeviceSize: softDeviceSize,
                  bootloaderSize: bootloaderSize, applicationSize: applicationSize, hash: hash,
                  isDebug: isDebug, bootValidations: bootValidations)
    }

    private static func decodeHash(_ bytes: ArraySlice<UInt8>) throws(NordicInitPacketError) -> NordicHash {
        var hashType: Int32?
        var digest: [UInt8]?
        var reader = ProtobufReader(bytes)
        while let field = try next(&reader) {
            switch field.number {
            case 1: hashType = try field.enumeration("Hash.hash_type")
            case 2: digest = Array(try field.bytes("Hash.hash"))
            default: continue
            }
        }
        guard let hashType else { throw .missingField("Hash.hash_type") }
        guard let digest else { throw .missingField("Hash.hash") }
        return NordicHash(type: NordicHashType(rawValue: hashType), bytes: digest)
    }

    private static func decodeBootValidation(_ bytes: ArraySlice<UInt8>) throws(NordicInitPacketError) -> NordicBootValidation {
        var validationType: Int32?
        var payload: [UInt8] = []
        var reader = ProtobufReader(bytes)
        while let field = try next(&reader) {
            switch field.number {
            case 1: validationType = try field.enumeration("BootValidation.type")
            case 2: payload = Array(try field.bytes("BootValidation.bytes"))
            default: continue
            }
        }
        guard let validationType else { throw .missingField("BootValidation.type") }
        return NordicBootValidation(type: NordicValidationType(rawValue: validationType), bytes: payload)
    }

    static func next(_ reader: inout ProtobufReader) throws(NordicInitPacketError) -> ProtobufField? {
        do {
            return try reader.nextField()
        } catch {
            throw .malformed(error)
        }
    }
}
