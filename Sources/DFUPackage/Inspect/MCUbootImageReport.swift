import DFUBytes

/// The MCUboot half of an inspected image: header fields, every TLV, what an nRF Connect SDK
/// manifest says about the image, and the integrity checks.
public struct MCUbootImageReport: Sendable, Equatable {
    /// The MCUboot image number (SMP's `image`).
    package let imageIndex: Int
    /// The parsed image; `nil` when the bytes do not parse (see `error`).
    public let image: MCUbootImage?
    /// Why the bytes do not parse as an MCUboot image; nil when they do.
    public let error: MCUbootImageError?
    /// The nRF Connect SDK manifest entry, for images from a `dfu_application.zip`.
    package let manifestFile: NRFConnectManifestFile?
    /// Every integrity check, passed or failed (no signature: that needs a key).
    public let checks: [VerificationCheck]

    /// TLV values longer than this are shortened in text reports (never in JSON).
    static let textValueLimit = 96

    /// The MCUboot report of `image`; nil when it is not an MCUboot image.
    public init?(_ image: FirmwareImage) {
        guard image.isMCUboot else { return nil }
        imageIndex = image.mcubootImageIndex ?? 0
        self.image = image.mcubootImage
        error = image.mcubootError
        manifestFile = image.nrfConnectManifestFile
        checks = image.integrityChecks
    }

    /// Whether the check ran and passed; `nil` when it did not run or could not be made.
    package func passed(_ check: ImageCheck) -> Bool? {
        checks.first { $0.check == check && $0.checked }?.passed
    }

    func textLines() -> [String] {
        var lines = ["  image index: \(imageIndex)"]
        if let manifestFile {
            var parts: [String] = []
            if let type = manifestFile.type { parts.append("type \(type)") }
            if let board = manifestFile.board { parts.append("board \(board)") }
            if let soc = manifestFile.soc { parts.append("soc \(soc)") }
            if let address = manifestFile.loadAddress { parts.append("load_address \(MCUbootHex.short(Int(address)))") }
            if let primary = manifestFile.primarySlot, let secondary = manifestFile.secondarySlot {
                parts.append("slots \(primary)/\(secondary)")
            }
            if let version = manifestFile.version { parts.append("version_MCUBOOT \(version)") }
            if !parts.isEmpty { lines.append("  manifest: " + parts.joined(separator: ", ")) }
        }
        guard let image else {
            lines.append("  mcuboot: NOT A VALID IMAGE: \(error.map { "\($0)" } ?? "unreadable")")
            return lines
        }
        let header = image.header
        lines.append("  mcuboot header:")
        for (key, value) in [
            ("magic", MCUbootHex.word(MCUbootImageHeader.magic)),
            ("load_addr", MCUbootHex.word(header.loadAddress)),
            ("hdr_size", "\(MCUbootHex.short(header.headerSize)) (\(header.headerSize))"),
            ("protect_tlv_size", "\(MCUbootHex.short(header.protectedTLVSize)) (\(header.protectedTLVSize))"),
            ("img_size", "\(MCUbootHex.short(header.imageSize)) (\(header.imageSize))"),
            ("flags", header.flags.description),
            ("version", header.version.description),
        ] {
            lines.append("    " + (key + ":").padding(toLength: 18, withPad: " ", startingAt: 0) + value)
        }
        for area in [image.protectedTLVArea, image.tlvArea].compactMap({ $0 }) {
            let title = area.isProtected ? "protected TLVs" : "TLVs"
            lines.append("  \(title) (magic \(MCUbootHex.halfword(area.magic)), offset \(MCUbootHex.short(area.offset)), "
                         + "\(area.totalSize) bytes):")
            for tlv in area.tlvs {
                lines.append("    \(tlv.type), \(tlv.value.count) bytes: " + Self.shortHex(tlv.value))
            }
        }
        if image.trailingByteCount > 0 {
            lines.append("  trailer: \(image.trailingByteCount) bytes after the TLV area")
        }
        if let unchecked = checks.first(where: { $0.check == .imageHash && !$0.checked }) {
            lines.append("  image_hash: not checked: \(unchecked.detail)")
        } else if let hashPassed = passed(.imageHash) {
            let tlv = image.imageHashTLV?.type.name ?? "hash"
            lines.append("  image_hash: " + (hashPassed ? "the \(tlv) TLV matches the image" : "DOES NOT MATCH the image"))
        }
        return lines
    }

    static func shortHex(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "(empty)" }
        guard bytes.count > textValueLimit else { return bytes.hexString }
        return bytes.prefix(textValueLimit).hexString + "…"
    }

    func jsonMembers() -> [(key: String, value: JSONValue)] {
        var mcuboot: [(key: String, value: JSONValue)] = [("image_index", .integer(Int64(imageIndex)))]
        if let manifestFile { mcuboot.append(("manifest", Self.manifestJSON(manifestFile))) }
        if let image {
            let header = image.header
            mcuboot.append(("header", .object([
                ("magic", .string(MCUbootHex.word(MCUbootImageHeader.magic))),
                ("load_addr", .integer(Int64(header.loadAddress))),
                ("hdr_size", .integer(Int64(header.headerSize))),
                ("protect_tlv_size", .integer(Int64(header.protectedTLVSize))),
                ("img_size", .integer(Int64(header.imageSize))),
                ("flags", .integer(Int64(header.flags.rawValue))),
                ("flag_names", .array(header.flags.names.map(JSONValue.string))),
                ("version", .string(header.version.description)),
            ])))
            mcuboot.append(("version", .string(image.version.description)))
            mcuboot.append(("hashed_size", .integer(Int64(image.hashedByteCount))))
            mcuboot.append(("hash_algorithm", .string(image.hashAlgorithm.description)))
            mcuboot.append(("hash_tlv", image.imageHash.map { .string($0.hexString) } ?? .null))
            mcuboot.append(("hash_computed", .string(image.computedHash.hexString)))
            mcuboot.append(("tlvs", .array(image.tlvs.map(Self.tlvJSON))))
            mcuboot.append(("trailing_bytes", .integer(Int64(image.trailingByteCount))))
        } else {
            mcuboot.append(("error", .string(error.map { "\($0)" } ?? "unreadable")))
        }
        return [
            ("mcuboot", .object(mcuboot)),
            ("hash_matches", passed(.imageHash).map(JSONValue.bool) ?? .null),
            ("checks", .array(checks.map { check in
                .object([("name", .string(check.name)), ("passed", .bool(check.passed)), ("detail", .string(check.detail))])
            })),
        ]
    }

    private static func tlvJSON(_ tlv: MCUbootTLV) -> JSONValue {
        .object([
            ("type", .integer(Int64(tlv.type.rawValue))),
            ("type_name", tlv.type.name.map(JSONValue.string) ?? .null),
            ("protected", .bool(tlv.isProtected)),
            ("offset", .integer(Int64(tlv.offset))),
            ("length", .integer(Int64(tlv.value.count))),
            ("value", .string(tlv.value.hexString)),
        ])
    }

    private static func manifestJSON(_ file: NRFConnectManifestFile) -> JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func optional(_ value: Int?) -> JSONValue { value.map { .integer(Int64($0)) } ?? .null }
        return .object([
            ("file", .string(file.file)),
            ("image_index", .integer(Int64(file.imageIndex))),
            ("size", optional(file.size)),
            ("version_MCUBOOT", optional(file.version?.description)),
            ("load_address", file.loadAddress.map { .integer(Int64($0)) } ?? .null),
            ("type", optional(file.type)),
            ("board", optional(file.board)),
            ("soc", optional(file.soc)),
            ("slot_index_primary", optional(file.primarySlot)),
            ("slot_index_secondary", optional(file.secondarySlot)),
        ])
    }
}
