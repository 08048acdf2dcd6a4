import DFUBytes

extension FirmwareImage {
    /// Every integrity check that applies to the image, passed or failed, in a fixed order.
    ///
    /// DFUKit packages: `size`, `sha256`, `crc32` against the manifest (each only when declared).
    /// Secure DFU: `init_packet` (decodes), `firmware_type`, `hash_type` (SHA-256), `hash` (the
    /// byte-reversed SHA-256 of the `.bin`), `sizes`. Legacy: `init_packet`, `crc16`, `sizes`
    /// (SD+BL only), `init_packet_data` (when the manifest repeats the fields). MCUboot:
    /// `mcuboot_image` (parses), `size` and `version` against an nRF Connect SDK manifest (each
    /// only when declared), `image_hash` (the SHA256 TLV). Signatures need a key and are checked
    /// by `PackageVerifier`.
    public var integrityChecks: [VerificationCheck] {
        if isMCUboot { return mcubootChecks }
        if let standalone { return standalone.checks }
        switch decodedInitPacket {
        case nil: return manifestChecks
        case let .undecodable(error)?:
            return [VerificationCheck(check: .initPacket, passed: false,
                                      detail: "\(nordicManifestImage?.datFile ?? "init packet") does not decode: \(error)")]
        case let .secure(packet)?: return secureChecks(packet)
        case let .legacy(packet)?: return legacyChecks(packet)
        }
    }

    private var manifestChecks: [VerificationCheck] {
        var checks: [VerificationCheck] = []
        if let declaredSize {
            checks.append(compare(.size, declared: "\(declaredSize) bytes", actual: "\(size) bytes", what: "size"))
        }
        if let declaredSHA256 {
            checks.append(compare(.sha256, declared: declaredSHA256, actual: sha256, what: "SHA-256"))
        }
        if let declaredCRC32 {
            checks.append(compare(.crc32, declared: ManifestImage.formatCRC32(declaredCRC32),
                                  actual: ManifestImage.formatCRC32(crc32), what: "CRC32"))
        }
        return checks
    }

    private var mcubootChecks: [VerificationCheck] {
        guard let image = mcubootImage else {
            return [VerificationCheck(check: .mcubootImage, passed: false,
                                      detail: "\(fileName) is not a valid MCUboot image: \(mcubootError.map { "\($0)" } ?? "unreadable")")]
        }
        var checks = [VerificationCheck(
            check: .mcubootImage, passed: true,
            detail: "\(fileName) is an MCUboot image, version \(image.version), \(image.tlvs.count) TLV\(image.tlvs.count == 1 ? "" : "s")")]
        if let declaredSize {
            checks.append(compare(.size, declared: "\(declaredSize) bytes", actual: "\(size) bytes", what: "size"))
        }
        if let declaredVersion = nrfConnectManifestFile?.version {
            let passed = declaredVersion == image.version
            checks.append(VerificationCheck(
                check: .version, passed: passed,
                detail: passed ? "version_MCUBOOT \(declaredVersion) matches the image header"
                    : "manifest says version_MCUBOOT \(declaredVersion), the image header says \(image.version)",
                declared: declaredVersion.description, actual: image.version.description))
        }
        checks.append(image.imageHashCheck(fileName: fileName))
        return checks
    }

    private func compare(_ check: ImageCheck, declared: String, actual: String, what: String) -> VerificationCheck {
        let passed = declared == actual
        let detail = passed ? "\(what) \(actual) matches the manifest"
            : "manifest says \(declared), image has \(actual)"
        return VerificationCheck(check: check, passed: passed, detail: detail, declared: declared, actual: actual)
    }

    private func secureChecks(_ packet: NordicInitPacket) -> [VerificationCheck] {
        let command = packet.initCommand
        let datFile = nordicManifestImage?.datFile ?? "init packet"
        var checks = [VerificationCheck(check: .initPacket, passed: true,
                                        detail: "\(datFile) decodes (\(packet.isSigned ? "signed, \(packet.signatureType?.name ?? "ECDSA_P256_SHA256")" : "unsigned"))")]

        if let kind = nordicManifestImage?.kind {
            let accepted: [NordicFirmwareType] = kind == .application
                ? [.application, .externalApplication] : [kind.firmwareType]
            let found = command.type?.name ?? "absent"
            let passed = command.type.map(accepted.contains) ?? false
            checks.append(VerificationCheck(
                check: .firmwareType, passed: passed,
                detail: passed ? "type \(found) fits manifest key '\(kind.rawValue)'"
                    : "init packet type is \(found), but the manifest lists the image as '\(kind.rawValue)' (\(kind.firmwareType.name))",
                declared: found, actual: kind.firmwareType.name))
        }

        guard let hash = command.hash else {
            checks.append(VerificationCheck(check: .hashType, passed: false, detail: "InitCommand.hash is absent"))
            return checks + [sizesCheck(command)]
        }
        let hashTypeOK = hash.type == .sha256
        checks.append(VerificationCheck(
            check: .hashType, passed: hashTypeOK,
            detail: hashTypeOK ? "SHA256" : "hash type is \(hash.type.name); Secure DFU bootloaders accept SHA256 only",
            declared: hash.type.name, actual: NordicHashType.sha256.name))
        if hashTypeOK {
            let expected = NordicHash.sha256Reversed(of: data)
            let passed = hash.bytes == expected
            checks.append(VerificationCheck(
                check: .hash, passed: passed,
                detail: passed ? "byte-reversed SHA-256 of \(fileName) matches the init packet"
                    : "init packet says \(hash.bytes.hexString), \(fileName) has \(expected.hexString) (byte-reversed SHA-256)",
                declared: hash.bytes.hexString, actual: expected.hexString))
        }
        checks.append(sizesCheck(command))
        return checks
    }

    /// `app_size` / `sd_size` / `bl_size` against the `.bin` and the manifest's metadata.
    private func sizesCheck(_ command: NordicInitCommand) -> VerificationCheck {
        var problems: [String] = []
        func expect(_ field: String, _ value: UInt32?, _ wanted: Int) {
            let found = Int(value ?? 0)
            if found != wanted { problems.append("\(field) is \(found), expected \(wanted)") }
        }
        switch nordicManifestImage?.kind {
        case .application?:
            expect("app_size", command.applicationSize, size)
            expect("sd_size", command.softDeviceSize, 0)
            expect("bl_size", command.bootloaderSize, 0)
        case .softDevice?:
            expect("sd_size", command.softDeviceSize, size)
            expect("app_size", command.applicationSize, 0)
        case .bootloader?:
            expect("bl_size", command.bootloaderSize, size)
            expect("app_size", command.applicationSize, 0)
        case .softDeviceBootloader?:
            let softDevice = Int(command.softDeviceSize ?? 0)
            let bootloader = Int(command.bootloaderSize ?? 0)
            if softDevice + bootloader != size {
                problems.append("sd_size \(softDevice) + bl_size \(bootloader) = \(softDevice + bootloader), but \(fileName) has \(size) bytes")
            }
            if let metadata = nordicManifestImage?.softDeviceSize, metadata != softDevice {
                problems.append("sd_size is \(softDevice), manifest info_read_only_metadata says \(metadata)")
            }
            if let metadata = nordicManifestImage?.bootloaderSize, metadata != bootloader {
                problems.append("bl_size is \(bootloader), manifest info_read_only_metadata says \(metadata)")
            }
            expect("app_size", command.applicationSize, 0)
        case nil:
            break
        }
        let summary = "sd_size \(command.softDeviceSize ?? 0), bl_size \(command.bootloaderSize ?? 0), "
            + "app_size \(command.applicationSize ?? 0); \(fileName) has \(size) bytes"
        return VerificationCheck(check: .sizes, passed: problems.isEmpty,
                                 detail: problems.isEmpty ? summary : problems.joined(separator: "; "))
    }

    private func legacyChecks(_ packet: LegacyInitPacket) -> [VerificationCheck] {
        let datFile = nordicManifestImage?.datFile ?? "init packet"
        var checks = [VerificationCheck(check: .initPacket, passed: true, detail: "\(datFile) decodes (legacy, unsigned)")]
        let actual = CRC16CCITTFalse.checksum(data)
        let passed = actual == packet.firmwareCRC16
        checks.append(VerificationCheck(
            check: .crc16, passed: passed,
            detail: passed ? "CRC-16/CCITT-FALSE of \(fileName) is \(Self.hex16(actual)), as the init packet says"
                : "init packet says \(Self.hex16(packet.firmwareCRC16)), \(fileName) has \(Self.hex16(actual))",
            declared: Self.hex16(packet.firmwareCRC16), actual: Self.hex16(actual)))
        if nordicManifestImage?.kind == .softDeviceBootloader,
           let softDevice = nordicManifestImage?.softDeviceSize, let bootloader = nordicManifestImage?.bootloaderSize {
            let sizesOK = softDevice + bootloader == size
            checks.append(VerificationCheck(
                check: .sizes, passed: sizesOK,
                detail: "manifest sd_size \(softDevice) + bl_size \(bootloader) = \(softDevice + bootloader); \(fileName) has \(size) bytes"))
        }
        if let manifestData = nordicManifestImage?.legacyInitPacketData {
            let differences = manifestData.differences(from: packet)
            checks.append(VerificationCheck(
                check: .initPacketData, passed: differences.isEmpty,
                detail: differences.isEmpty ? "manifest init_packet_data repeats the init packet"
                    : "manifest init_packet_data differs from \(datFile): " + differences.joined(separator: "; ")))
        }
        return checks
    }

    static func hex16(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
