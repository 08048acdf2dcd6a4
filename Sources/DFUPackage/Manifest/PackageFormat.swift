/// The kinds of firmware package DFUKit reads.
///
/// Every kind produces the same `FirmwarePackage` / `FirmwareImage` values; Nordic packages
/// also set each image's `initPacket` (the `.dat` bytes) and its decoded form.
public enum PackageFormat: String, Sendable, Equatable {
    /// `{"format": "dfukit-package", "format_version": 1, "images": [...]}`.
    case dfukit = "dfukit-package"
    /// nrfutil 3+ (nRF5 SDK 12+): `{"manifest": {...}}`, `.bin` + protobuf `.dat` per image.
    case nordicSecure = "nordic-secure"
    /// nrfutil 0.5 / `adafruit-nrfutil dfu genpkg` (nRF5 SDK <= 11): `dfu_version` 0.5,
    /// `init_packet_data`, `.bin` + fixed-layout `.dat` with a CRC16.
    case nordicLegacy = "nordic-legacy"

    /// Whether the package came from Nordic's tools.
    public var isNordic: Bool { self != .dfukit }
}
