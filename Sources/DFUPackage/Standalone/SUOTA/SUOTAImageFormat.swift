import DFUBytes
import Foundation

/// A Renesas/Dialog SUOTA image (`mkimage single`, DA14580/585/586/531, SDK 5 and 6): the
/// 64-byte `SUOTAImageHeader` ("pQ"), then the code. Its checks are the ones the device side
/// relies on: the header is whole and signed "pQ", the file is exactly header + `code_size`
/// bytes (the receiver stops writing at `code_size + 64`, so anything after it is lost and a
/// short file leaves the image incomplete), and the header's CRC-32 matches the code (the
/// secondary bootloader checks it before running the image and falls back to the other bank
/// when it does not match). An encrypted image's CRC covers the clear code, which only the
/// device sees: that check is not made.
///
/// Not this format: the DA1468x SUOTA 1.1 header ("pa") and the DA1469x one ("Qq").
package enum SUOTAImageFormat: StandaloneImageFormat {
    package static let name = "dialog-suota"
    package static let description = "Renesas/Dialog SUOTA image, mkimage single: DA1458x/DA14531 'pQ' header"
    package static let profile = "dialog-suota"

    package static func recognizes(head: [UInt8], path: String) -> Bool {
        head.starts(with: SUOTAImageHeader.signature)
    }

    package static func read(_ bytes: [UInt8], path: String) throws(PackageError) -> StandaloneImage {
        let header: SUOTAImageHeader
        do {
            header = try SUOTAImageHeader(decoding: bytes)
        } catch {
            let check = VerificationCheck(check: .fileFormat, passed: false, detail: "header: \(error)")
            return StandaloneImage(format: name, version: "", checks: [check], details: [])
        }
        let code = Array(bytes.dropFirst(SUOTAImageHeader.size))
        return StandaloneImage(format: name, version: header.version,
                               checks: [headerCheck(header), sizeCheck(header, fileSize: bytes.count),
                                        crcCheck(header, code: code)],
                               details: details(header, bytes: bytes))
    }

    private static func headerCheck(_ header: SUOTAImageHeader) -> VerificationCheck {
        let found = header.signature.hexString
        return VerificationCheck(check: .fileFormat, passed: header.hasSignature,
                                 detail: header.hasSignature ? "header: signature 70 51 ('pQ')"
                                     : "header: signature is \(found), a SUOTA image has 70 51 ('pQ')",
                                 declared: "7051", actual: found)
    }

    private static func sizeCheck(_ header: SUOTAImageHeader, fileSize: Int) -> VerificationCheck {
        let expected = SUOTAImageHeader.size + Int(header.codeSize)
        let passed = header.codeSize > 0 && fileSize == expected
        let detail: String
        if header.codeSize == 0 {
            detail = "size: the header's code size is 0 (a SUOTA receiver refuses it: invalid image size)"
        } else if passed {
            detail = "size: 64-byte header + \(header.codeSize) bytes of code = \(fileSize) bytes"
        } else {
            detail = "size: 64-byte header + code size \(header.codeSize) = \(expected) bytes, but the file has \(fileSize)"
        }
        return VerificationCheck(check: .fileFormat, passed: passed, detail: detail,
                                 declared: "\(expected) bytes", actual: "\(fileSize) bytes")
    }

    private static func crcCheck(_ header: SUOTAImageHeader, code: [UInt8]) -> VerificationCheck {
        if header.flags.contains(.encrypted) {
            return .notCheckable(.fileFormat, because: "crc32: the code is encrypted; the header's CRC-32 "
                                     + "covers the clear code, which only the device's bootloader sees")
        }
        let covered = Array(code.prefix(Int(header.codeSize)))
        let actual = CRC32.checksum(covered)
        let declared = hex32(header.crc32)
        guard covered.count == Int(header.codeSize) else {
            return VerificationCheck(check: .fileFormat, passed: false,
                                     detail: "crc32: the header's CRC-32 \(declared) covers \(header.codeSize) bytes "
                                         + "of code; the file holds \(covered.count)",
                                     declared: declared, actual: hex32(actual))
        }
        return VerificationCheck(check: .fileFormat, passed: actual == header.crc32,
                                 detail: actual == header.crc32 ? "crc32: the code's CRC-32 is \(declared), as the header says"
                                     : "crc32: the header says \(declared), the code's CRC-32 is \(hex32(actual))",
                                 declared: declared, actual: hex32(actual))
    }

    private static func details(_ header: SUOTAImageHeader, bytes: [UInt8]) -> [StandaloneImage.Detail] {
        let xor = bytes.reduce(UInt8(0), ^)
        return [
            .init("header", "pQ, 64 bytes"),
            .init("code size", "\(header.codeSize) bytes"),
            .init("header crc32", hex32(header.crc32)),
            .init("timestamp", "\(header.timestamp) (\(utc(header.timestamp)))"),
            .init("flags", "0x" + hex2(header.flags.rawValue) + " (\(header.flags.summary))"),
            .init("valid flag", "0x" + hex2(header.validFlag) + (header.validFlag == SUOTAImageHeader.validMark ? "" : " (mkimage writes 0xAA)")),
            .init("image id", "0x" + hex2(header.imageID)),
            .init("xor", "0x" + hex2(xor) + " (the SUOTA client appends it: \(bytes.count + 1) bytes go to the device)"),
        ]
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    private static func hex2(_ value: UInt8) -> String {
        (value < 0x10 ? "0" : "") + String(value, radix: 16, uppercase: true)
    }

    private static func utc(_ seconds: UInt32) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
