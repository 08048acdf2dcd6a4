/// Silicon Labs GBL files (`.gbl`, Gecko Bootloader upgrade images), flashed by the
/// `silabs-ota` profile. The checks are the ones a Gecko Bootloader makes while it parses
/// (`GBLFile`): a structure it can parse, and the end tag's CRC-32. A signed file's signature is
/// shown, and checked with `--key` (`GBLFile.signedBytes`).
public enum GBLImageFormat: StandaloneImageFormat {
    public static let name = "silabs-gbl"
    public static let description = "Silicon Labs Gecko Bootloader file (GBL3)"
    public static let profile = "silabs-ota"

    /// The header tag's identifier, as the first four bytes of every GBL file hold it.
    static let magic: [UInt8] = [0xEB, 0x17, 0xA6, 0x03]

    public static func recognizes(head: [UInt8], path: String) -> Bool {
        head.starts(with: magic) || path.lowercased().hasSuffix(".gbl")
    }

    public static func read(_ bytes: [UInt8], path: String) throws(PackageError) -> StandaloneImage {
        let file = GBLFile(bytes)
        let signature = file.signature.map {
            StandaloneImage.Signature(algorithm: .ecdsaP256, message: file.signedBytes, signature: $0.r + $0.s)
        }
        // The Gecko bootloader's parser (btl_gbl_parser / gbl_parser.c) ends the upload at a
        // tag it does not know: the device would refuse the file at the end (0x84 at 0x03),
        // after its program data had overwritten the application.
        let refusals = file.unknownTags.map {
            "the Gecko bootloader refuses a file with a tag it does not know: \($0.id) at offset \($0.offset)"
        }
        return StandaloneImage(format: name, version: file.application?.versionText ?? "",
                               checks: checks(file), details: details(file), signature: signature,
                               values: values(file), refusals: refusals)
    }

    /// `image.info` for profiles: `has_application` (0 or 1) and, with an application tag,
    /// `app_type`, `app_version`, `app_capabilities`; `signed` and `encrypted` (0 or 1);
    /// `program_bytes` (program data carried, as the file has it).
    static func values(_ file: GBLFile) -> [String: UInt64] {
        var values: [String: UInt64] = [
            "has_application": file.application == nil ? 0 : 1,
            "signed": file.isSigned ? 1 : 0,
            "encrypted": file.isEncrypted ? 1 : 0,
            "program_bytes": UInt64(file.programData.reduce(0) { $0 + $1.dataCount }),
        ]
        if let application = file.application {
            values["app_type"] = UInt64(application.type)
            values["app_version"] = UInt64(application.version)
            values["app_capabilities"] = UInt64(application.capabilities)
        }
        return values
    }

    static func checks(_ file: GBLFile) -> [VerificationCheck] {
        var checks: [VerificationCheck] = []
        if file.problems.isEmpty {
            checks.append(VerificationCheck(
                check: .fileFormat, passed: true,
                detail: "GBL structure: \(file.tags.count) tags from the header to the end tag, in the order bootloaders take"))
        } else {
            checks.append(VerificationCheck(check: .fileFormat, passed: false,
                                            detail: "GBL structure: " + file.problems.joined(separator: "; ")))
        }
        if let endTag = file.endTag, let computed = file.computedCRC {
            let declared = GBLApplicationData.hex(endTag.crc32), actual = GBLApplicationData.hex(computed)
            checks.append(endTag.crc32 == computed
                ? VerificationCheck(check: .fileFormat, passed: true,
                                    detail: "GBL end tag CRC-32 \(declared) matches the file")
                : VerificationCheck(check: .fileFormat, passed: false,
                                    detail: "GBL end tag says CRC-32 \(declared), the file gives \(actual): "
                                        + "the file is damaged (a Gecko bootloader refuses it)",
                                    declared: declared, actual: actual))
        } else {
            checks.append(VerificationCheck(check: .fileFormat, passed: false,
                                            detail: "GBL end tag CRC-32: the file has no end tag to check it against"))
        }
        return checks
    }

    static func details(_ file: GBLFile) -> [StandaloneImage.Detail] {
        var details: [StandaloneImage.Detail] = []
        if let header = file.header {
            var kind: [String] = []
            if file.isEncrypted { kind.append("encrypted (AES-CCM)") }
            if header.type.contains(.signed) { kind.append("signed (ECDSA P-256)") }
            details.append(.init("gbl", "version \(header.versionText), " + (kind.isEmpty ? "plain" : kind.joined(separator: ", "))))
        }
        if let application = file.application {
            details.append(.init("application", "type \(application.typeText), version \(application.versionText), "
                + "capabilities \(GBLApplicationData.hex(application.capabilities)), product "
                + application.productID.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()))
        }
        for tag in file.tags {
            details.append(.init("tag @\(tag.offset)", tagSummary(tag)))
        }
        if !file.unknownTags.isEmpty {
            details.append(.init("unknown tags", file.unknownTags.map { "\($0.id) at \($0.offset)" }.joined(separator: ", ")
                + ": a bootloader that does not know a tag refuses the file (Gecko SDK 4.4 knows none of these)"))
        }
        if !file.trailing.isEmpty {
            details.append(.init("padding", "\(file.trailing.count) bytes after the end tag (Simplicity Commander pads files to 4 bytes)"))
        }
        if file.signature != nil {
            details.append(.init("signature", "ECDSA P-256 over the SHA-256 of the tags before it; "
                + "`dfukit package verify --key KEY.pem` checks it"))
        }
        return details
    }

    static func tagSummary(_ tag: GBLTag) -> String {
        let what = "\(tag.id), \(tag.body.count) bytes"
        if let program = GBLProgramData(tag) { return "\(tag.id): \(program.description)" }
        if let end = GBLEndTag(tag) { return "\(what), CRC-32 \(GBLApplicationData.hex(end.crc32))" }
        if let upgrade = GBLBootloaderUpgrade(tag) {
            return "\(what): version \(GBLApplicationData.hex(upgrade.version)) at \(GBLApplicationData.hex(upgrade.address))"
        }
        if let upgrade = GBLSEUpgrade(tag) { return "\(what): SE version \(GBLApplicationData.hex(upgrade.version))" }
        if let entries = GBLVersionDependency.entries(tag) {
            return "\(what): " + entries.map(\.description).joined(separator: ", ")
        }
        return what
    }
}
