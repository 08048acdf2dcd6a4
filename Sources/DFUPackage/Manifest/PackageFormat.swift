/// The kinds of firmware package DFUKit reads.
///
/// Only DFUKit's own format exists so far. Nordic nrfutil packages (`manifest.json` with a
/// `manifest` key, `.bin` + `.dat` init packets) are recognised and refused with
/// `PackageError.unsupportedFormat`; reading them will add a case here, producing the same
/// `FirmwarePackage` / `FirmwareImage` values (with `initPacket` set).
public enum PackageFormat: String, Sendable, Equatable {
    /// `{"format": "dfukit-package", "format_version": 1, "images": [...]}`.
    case dfukit = "dfukit-package"
}
