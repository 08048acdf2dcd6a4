import Foundation
/// Everything that can go wrong while reading, checking or building a firmware package.
///
/// Each case carries where it happened (the package path, the entry or image, the line) and its
/// `description` says what failed, where, and what to do next. The command line maps every case
/// to exit status 65 (`EX_DATAERR`), so the message is the only guidance a user gets.
public enum PackageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file exists but is not a zip archive at all.
    case notAZip(path: String, reason: String)
    /// The file is a zip archive, but libzip found it inconsistent or could not inflate an entry.
    case corruptArchive(path: String, entry: String?, reason: String)
    /// The archive has no `manifest.json` at its root.
    case missingManifest(path: String)
    /// `manifest.json` is not valid JSON, or a key is missing or has the wrong type or value.
    /// `key` is a path such as `images[0].sha256` (or `(document)` for a syntax error).
    case badManifest(path: String, key: String, problem: String)
    /// `manifest.json` belongs to a package format this version cannot read.
    case unsupportedFormat(path: String, found: String)
    /// The manifest names an image file that the archive does not contain.
    case missingImageFile(path: String, image: String, file: String)
    /// An entry name (in the archive or in the manifest) could escape the extraction directory.
    case unsafeEntryName(path: String, entry: String, reason: String)
    /// An entry inflates to more than the caller allowed: a zip bomb, or headers that lie.
    /// Reading stops at `limit` bytes, so the entry is never inflated completely.
    case entryTooLarge(path: String, entry: String, limit: Int)
    /// An image's bytes differ from what the manifest or its init packet declares (size, SHA-256,
    /// CRC32; for Nordic packages an undecodable init packet, wrong type, hash, sizes or CRC16).
    case imageMismatch(path: String, image: String, mismatches: [ImageMismatch])
    /// `dfukit package verify` (or `PackageVerification.requireVerified()`): a check failed,
    /// e.g. `signature` with "signature missing" or "signature invalid".
    case verificationFailed(path: String, image: String, check: String, detail: String)
    /// An Intel HEX file is malformed; `line` is 1-based.
    case badIntelHex(file: String, line: Int, problem: String)
    /// An Intel HEX file given as a package whose data does not start with an MCUboot image.
    case hexWithoutImage(path: String, baseAddress: UInt32)
    /// Input given to `PackageBuilder` cannot make a valid package.
    case invalidBuildInput(reason: String)
    /// A file given as a bare MCUboot image (it starts with the MCUboot magic) does not parse;
    /// the error names the byte offset.
    case badMCUbootImage(path: String, error: MCUbootImageError)
    /// A file is larger than `limit` bytes, more than any firmware image DFUKit accepts.
    case fileTooLarge(path: String, limit: Int)
    /// Reading or writing a file failed.
    case io(path: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case let .notAZip(path, reason):
            return "\(path): not a zip archive (\(reason)). Pass a firmware package (a .zip file made by "
                + "`dfukit package create`, nrfutil or the nRF Connect SDK) or an MCUboot image signed by imgtool."
        case let .corruptArchive(path, entry, reason):
            let place = entry.map { "\(path), entry '\($0)'" } ?? path
            return "\(place): the zip archive is corrupt (\(reason)). Rebuild or download the package again."
        case let .missingManifest(path):
            return "\(path): no manifest.json at the root of the archive. A DFUKit package needs one; "
                + "create packages with `dfukit package create`."
        case let .badManifest(path, key, problem):
            return "\(path), manifest.json, key '\(key)': \(problem). Fix the manifest or recreate the package."
        case let .unsupportedFormat(path, found):
            return "\(path), manifest.json: unsupported package format \(found). This version reads "
                + "'\(PackageFormat.dfukit.rawValue)' version \(PackageManifest.currentFormatVersion), "
                + "nrfutil (Secure DFU) packages, legacy packages with dfu_version 0.5 and nRF Connect SDK "
                + "dfu_application.zip packages (format-version 0 or 1)."
        case let .missingImageFile(path, image, file):
            return "\(path): image '\(image)' names file '\(file)', which is not in the archive. "
                + "Add the file or fix the manifest's 'file' key."
        case let .unsafeEntryName(path, entry, reason):
            return "\(path): unsafe entry name '\(Self.printable(entry))' (\(reason)). "
                + "Refusing the package; it may be malicious. Obtain it from a trusted source."
        case let .entryTooLarge(path, entry, limit):
            return "\(path), entry '\(entry)': inflates to more than \(limit) bytes, more than the "
                + "manifest allows. Refusing it (possible zip bomb); rebuild the package."
        case let .imageMismatch(path, image, mismatches):
            let checks = mismatches.map(\.description).joined(separator: "; ")
            let source = mismatches.allSatisfy(\.check.isManifestCheck) ? "manifest.json"
                : mismatches.contains(where: \.check.isMCUbootCheck) ? "its MCUboot header and TLVs"
                : mismatches.allSatisfy { $0.check == .fileFormat } ? "its own header and checksums" : "its init packet"
            return "\(path), image '\(image)': does not match \(source): \(checks). "
                + "The package is damaged or was modified; do not flash it. Rebuild or download it again."
        case let .verificationFailed(path, image, check, detail):
            return "\(path), image '\(image)': check '\(check)' failed: \(detail). "
                + "Do not flash this package; rebuild it, or verify it with the key it was signed with."
        case let .hexWithoutImage(path, baseAddress):
            return "\(path): an Intel HEX file with no MCUboot image at its lowest address (0x\(String(baseAddress, radix: 16))) "
                + "is not a package. Make one of it with `dfukit package create --profile P --version V --output OUT.zip "
                + "\((path as NSString).lastPathComponent)`."
        case let .badIntelHex(file, line, problem):
            return "\(file):\(line): invalid Intel HEX: \(problem). Regenerate the file with your toolchain."
        case let .invalidBuildInput(reason):
            return "cannot build package: \(reason)."
        case let .badMCUbootImage(path, error):
            return "\(path): not a valid MCUboot image: \(error). Sign the image again with imgtool."
        case let .fileTooLarge(path, limit):
            return "\(path): larger than \(limit) bytes, more than any firmware image DFUKit accepts."
        case let .io(path, operation, reason):
            return "\(path): cannot \(operation): \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason). Check the path and its permissions."
        }
    }

    /// Shows control characters (such as NUL) in entry names instead of printing them raw.
    static func printable(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
