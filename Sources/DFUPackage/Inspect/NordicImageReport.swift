import DFUBytes

/// The Nordic half of an inspected image: sizes, every decoded init packet field (named as
/// dfu-cc.proto and `nrfutil pkg display` name them) and the integrity checks.
public struct NordicImageReport: Sendable, Equatable {
    package let initPacketFile: String
    /// The init packet's size in bytes.
    public let initPacketSize: Int
    /// SoftDevice bytes in the image (0 when none).
    public let softDeviceSize: Int
    /// Bootloader bytes in the image (0 when none).
    public let bootloaderSize: Int
    /// Application bytes in the image.
    public let applicationSize: Int
    /// The init packet's fields, decoded.
    public let initPacket: DecodedInitPacket
    /// Every integrity check, passed or failed (no signature: that needs a key).
    public let checks: [VerificationCheck]

    /// The Nordic report of `image`; nil when it has no init packet that decodes.
    public init?(_ image: FirmwareImage) {
        guard let decoded = image.decodedInitPacket else { return nil }
        initPacketFile = image.nordicManifestImage?.datFile ?? ""
        initPacketSize = image.initPacket?.count ?? 0
        softDeviceSize = image.softDeviceSize
        bootloaderSize = image.bootloaderSize
        applicationSize = image.applicationSize
        initPacket = decoded
        checks = image.integrityChecks
    }

    /// Whether the check ran and passed; `nil` when it did not run.
    package func passed(_ check: ImageCheck) -> Bool? {
        checks.first { $0.check == check }?.passed
    }

    /// `0xB7`, `0xFFFE`: upper-case hex with at least `digits` digits, as nrfutil prints IDs.
    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func optional(_ value: UInt32?, hex: Bool = false) -> String {
        guard let value else { return "(absent)" }
        return hex ? "\(Self.hex(UInt64(value), digits: 8)) (\(value))" : "\(value)"
    }

    func textLines() -> [String] {
        var lines = ["  sizes:   softdevice \(softDeviceSize), bootloader \(bootloaderSize), application \(applicationSize)",
                     "  init packet: \(initPacketFile) (\(initPacketSize) bytes)"]
        for (key, value) in fields() {
            lines.append("    " + (key + ":").padding(toLength: 17, withPad: " ", startingAt: 0) + value)
        }
        switch initPacket {
        case .secure:
            if let hashPassed = passed(.hash) {
                lines.append("  hash:    " + (hashPassed ? "matches the .bin (byte-reversed SHA-256)" : "DOES NOT MATCH the .bin"))
            }
        case .legacy:
            if let crcPassed = passed(.crc16) {
                lines.append("  crc16:   " + (crcPassed ? "matches the .bin" : "DOES NOT MATCH the .bin"))
            }
        case .undecodable:
            break
        }
        return lines
    }

    /// The decoded fields as (name, text) pairs in dfu-cc.proto order.
    func fields() -> [(String, String)] {
        switch initPacket {
        case let .secure(packet):
            let command = packet.initCommand
            var fields: [(String, String)] = [
                ("op_code", packet.opCode?.name ?? "(absent)"),
                ("signature_type", packet.isSignedCommand ? (packet.signatureType?.name ?? "(absent)") : "UNSIGNED"),
                ("signature", packet.signature.map { $0.hexString + " (r, s little-endian)" } ?? "(none)"),
                ("fw_version", Self.optional(command.firmwareVersion, hex: true)),
                ("hw_version", Self.optional(command.hardwareVersion, hex: true)),
                ("sd_req", command.softDeviceRequirements.isEmpty ? "(none)"
                    : command.softDeviceRequirements.map { Self.hex(UInt64($0), digits: 2) }.joined(separator: ", ")),
                ("type", command.type?.name ?? "(absent)"),
                ("sd_size", Self.optional(command.softDeviceSize)),
                ("bl_size", Self.optional(command.bootloaderSize)),
                ("app_size", Self.optional(command.applicationSize)),
                ("hash_type", command.hash?.type.name ?? "(absent)"),
                ("hash", command.hash.map { $0.bytes.hexString + " (as stored, little-endian)" } ?? "(absent)"),
                ("is_debug", command.isDebug.map { $0 ? "true" : "false" } ?? "(absent)"),
            ]
            if command.bootValidations.isEmpty {
                fields.append(("boot_validation", "(none)"))
            }
            for validation in command.bootValidations {
                let bytes = validation.bytes.isEmpty ? "" : " " + validation.bytes.hexString
                fields.append(("boot_validation", validation.type.name + bytes))
            }
            return fields
        case let .legacy(packet):
            var fields: [(String, String)] = [
                ("device_type", Self.hex(UInt64(packet.deviceType), digits: 4)),
                ("device_revision", Self.hex(UInt64(packet.deviceRevision), digits: 4)),
                ("app_version", "\(Self.hex(UInt64(packet.applicationVersion), digits: 8)) (\(packet.applicationVersion))"),
                ("sd_req", packet.softDeviceRequirements.isEmpty ? "(none)"
                    : packet.softDeviceRequirements.map { Self.hex(UInt64($0), digits: 2) }.joined(separator: ", ")),
                ("crc16", Self.hex(UInt64(packet.firmwareCRC16), digits: 4)),
            ]
            if !packet.trailingBytes.isEmpty { fields.append(("trailing_bytes", packet.trailingBytes.hexString)) }
            return fields
        case let .undecodable(error):
            return [("error", "\(error)")]
        }
    }

    func jsonMembers() -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [
            ("softdevice_size", .integer(Int64(softDeviceSize))),
            ("bootloader_size", .integer(Int64(bootloaderSize))),
            ("application_size", .integer(Int64(applicationSize))),
            ("init_packet_file", .string(initPacketFile)),
            ("init_packet_size", .integer(Int64(initPacketSize))),
            ("init_packet", initPacketJSON()),
        ]
        switch initPacket {
        case .secure: members.append(("hash_matches", passed(.hash).map(JSONValue.bool) ?? .null))
        case .legacy: members.append(("crc16_matches", passed(.crc16).map(JSONValue.bool) ?? .null))
        case .undecodable: break
        }
        members.append(("checks", .array(checks.map { check in
            .object([("name", .string(check.name)), ("passed", .bool(check.passed)), ("detail", .string(check.detail))])
        })))
        return members
    }

    private func initPacketJSON() -> JSONValue {
        switch initPacket {
        case let .secure(packet):
            return Self.secureJSON(packet)
        case let .legacy(packet):
            return .object([
                ("kind", .string("legacy")),
                ("device_type", .string(Self.hex(UInt64(packet.deviceType), digits: 4))),
                ("device_revision", .string(Self.hex(UInt64(packet.deviceRevision), digits: 4))),
                ("app_version", .integer(Int64(packet.applicationVersion))),
                ("sd_req", .array(packet.softDeviceRequirements.map { .string(Self.hex(UInt64($0), digits: 2)) })),
                ("crc16", .string(Self.hex(UInt64(packet.firmwareCRC16), digits: 4))),
            ])
        case let .undecodable(error):
            return .object([("kind", .string("undecodable")), ("error", .string("\(error)"))])
        }
    }

    private static func number(_ value: UInt32?) -> JSONValue {
        guard let value else { return .null }
        return .integer(Int64(value))
    }

    private static func name(_ value: String?) -> JSONValue {
        guard let value else { return .null }
        return .string(value)
    }

    private static func secureJSON(_ packet: NordicInitPacket) -> JSONValue {
        let command = packet.initCommand
        let requirements: [JSONValue] = command.softDeviceRequirements.map { .string(hex(UInt64($0), digits: 2)) }
        let validations: [JSONValue] = command.bootValidations.map { validation in
            .object([("type", .string(validation.type.name)), ("bytes", .string(validation.bytes.hexString))])
        }
        var members: [(key: String, value: JSONValue)] = [("kind", .string("secure"))]
        members.append(("op_code", name(packet.opCode?.name)))
        members.append(("signed", .bool(packet.isSigned)))
        members.append(("signature_type", name(packet.signatureType?.name)))
        members.append(("signature", name(packet.signature?.hexString)))
        members.append(("fw_version", number(command.firmwareVersion)))
        members.append(("hw_version", number(command.hardwareVersion)))
        members.append(("sd_req", .array(requirements)))
        members.append(("type", name(command.type?.name)))
        members.append(("sd_size", number(command.softDeviceSize)))
        members.append(("bl_size", number(command.bootloaderSize)))
        members.append(("app_size", number(command.applicationSize)))
        members.append(("hash_type", name(command.hash?.type.name)))
        members.append(("hash", name(command.hash?.bytes.hexString)))
        members.append(("is_debug", command.isDebug.map(JSONValue.bool) ?? .null))
        members.append(("boot_validation", .array(validations)))
        return .object(members)
    }
}
