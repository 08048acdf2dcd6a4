import DFUBytes

/// A Telink BLE SDK firmware image (`.bin`, the file fwupd's telink-dfu archive carries as
/// `firmware.bin`), recognized by the vendor mark `KNLT` at offset 8, or, for a `.bin` whose
/// mark is damaged, by the word the SDK's start-up code puts at 0x0C (`0x00880000` + the RAM
/// code's size / 16: bytes 14 and 15 are `88 00`), so that the damage is reported as such.
///
/// Its checks are the ones the SDK's OTA server makes on the bytes it receives (`ota_server.c`
/// `otaWrite`, research/telink-ota.md section 3), so that an image the device would refuse is
/// refused before any byte is sent: the mark, the size field at 0x18 against the file's length,
/// the length of a firmware-checked image (16n + 4) and the CRC-32/JAMCRC it ends with. The image
/// carries no version: a bare `.bin` has an empty one (fwupd's archive gives one,
/// `TelinkArchive`).
package enum TelinkBinaryFormat: StandaloneImageFormat {
    package static let name = "telink-bin"
    package static let description = "Telink BLE SDK firmware image: KNLT at 8, size at 0x18, CRC-32 trailer"
    package static let profile = "telink-ota"

    package static func recognizes(head: [UInt8], path: String) -> Bool {
        if TelinkImageLayout.hasMark(head) { return true }
        return path.lowercased().hasSuffix(".bin") && head.count >= 16 && head[14] == 0x88 && head[15] == 0x00
    }

    package static func read(_ bytes: [UInt8], path: String) throws(PackageError) -> StandaloneImage {
        StandaloneImage(format: name, version: "", checks: checks(bytes), details: details(bytes))
    }

    /// Mark, size field, firmware-check length and CRC-32 trailer, in that order.
    static func checks(_ bytes: [UInt8]) -> [VerificationCheck] {
        var checks = [markCheck(bytes)]
        guard let declared = TelinkImageLayout.declaredSize(bytes) else {
            checks.append(VerificationCheck(
                check: .fileFormat, passed: false,
                detail: "the file has \(bytes.count) bytes and ends before the size field at 0x18 "
                    + "(it needs \(TelinkImageLayout.headerLength))"))
            return checks
        }
        let sizeMatches = Int(declared) == bytes.count
        checks.append(VerificationCheck(
            check: .fileFormat, passed: sizeMatches,
            detail: sizeMatches ? "size field at 0x18 says \(declared) bytes, the file's length"
                : "size field at 0x18 says \(declared) bytes, the file has \(bytes.count): "
                    + "the device would count its packets from the field",
            declared: "\(declared) bytes", actual: "\(bytes.count) bytes"))
        let remainder = bytes.count % TelinkImageLayout.packetDataSize
        let lengthFits = remainder == TelinkImageLayout.trailerLength
        // The length and the trailer are the SDK's firmware check (fw_check_en): a device built
        // with blc_ota_setOtaFirmwareCheckEnable(0) makes neither (telink-ota: firmware_check=0).
        checks.append(VerificationCheck(
            check: .fileFormat, passed: lengthFits,
            detail: lengthFits ? "\(bytes.count) bytes = 16 x \(bytes.count / 16) + 4: the CRC-32 fills a last packet of its own"
                : "\(bytes.count) bytes is 16 x \(bytes.count / 16) + \(remainder), not 16n + 4: "
                    + "the SDK's firmware check (on by default) refuses it (OTA_FW_SIZE_ERR)").waived(when: "firmware_check", is: 0))
        checks.append(trailerCheck(bytes).waived(when: "firmware_check", is: 0))
        return checks
    }

    private static func markCheck(_ bytes: [UInt8]) -> VerificationCheck {
        let found = Array(bytes.dropFirst(TelinkImageLayout.markOffset).prefix(4))
        let passed = found == TelinkImageLayout.mark
        return VerificationCheck(
            check: .fileFormat, passed: passed,
            detail: passed ? "vendor mark KNLT at offset 8"
                : "offset 8 holds \(found.hexString.isEmpty ? "nothing" : found.hexString), not the vendor mark "
                    + "4b4e4c54 (KNLT): the device refuses it (OTA_FIRMWARE_MARK_ERR)",
            declared: TelinkImageLayout.mark.hexString, actual: found.hexString)
    }

    private static func trailerCheck(_ bytes: [UInt8]) -> VerificationCheck {
        guard bytes.count >= TelinkImageLayout.headerLength, let stored = TelinkImageLayout.trailer(bytes) else {
            return VerificationCheck(check: .fileFormat, passed: false, detail: "too short for a CRC-32 trailer")
        }
        let computed = TelinkImageLayout.firmwareCRC(bytes.dropLast(TelinkImageLayout.trailerLength))
        let passed = computed == stored
        let declared = hex32(stored)
        let actual = hex32(computed)
        return VerificationCheck(
            check: .fileFormat, passed: passed,
            detail: passed ? "CRC-32/JAMCRC of the first \(bytes.count - 4) bytes is \(actual), as the last 4 bytes say"
                : "the last 4 bytes say CRC-32 \(declared), the first \(bytes.count - 4) bytes give \(actual) "
                    + "(CRC-32/JAMCRC): the image is damaged, the device would refuse it (OTA_FW_CHECK_ERR)",
            declared: declared, actual: actual)
    }

    static func details(_ bytes: [UInt8]) -> [StandaloneImage.Detail] {
        var details = [StandaloneImage.Detail("size", "\(bytes.count) bytes")]
        if let declared = TelinkImageLayout.declaredSize(bytes) {
            details.append(StandaloneImage.Detail("size field (0x18)", "\(declared)"))
        }
        let packets = TelinkImageLayout.packetCount(size: bytes.count)
        details.append(StandaloneImage.Detail("OTA packets", packets == 0 ? "none" : "\(packets) (indexes 0...\(packets - 1))"))
        if let stored = TelinkImageLayout.trailer(bytes) {
            details.append(StandaloneImage.Detail("CRC-32 trailer", hex32(stored)))
        }
        return details
    }

    static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
