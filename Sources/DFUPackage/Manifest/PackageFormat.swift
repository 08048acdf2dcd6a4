/// The kinds of firmware package DFUKit reads.
///
/// Every kind produces the same `FirmwarePackage` / `FirmwareImage` values; Nordic packages
/// also set each image's `initPacket` (the `.dat` bytes) and its decoded form, MCUboot images
/// their parsed header and TLVs (`FirmwareImage.mcubootImage`).
public enum PackageFormat: String, Sendable, Equatable {
    /// `{"format": "dfukit-package", "format_version": 1, "images": [...]}`.
    case dfukit = "dfukit-package"
    /// nrfutil 3+ (nRF5 SDK 12+): `{"manifest": {...}}`, `.bin` + protobuf `.dat` per image.
    case nordicSecure = "nordic-secure"
    /// nrfutil 0.5 / `adafruit-nrfutil dfu genpkg` (nRF5 SDK <= 11): `dfu_version` 0.5,
    /// `init_packet_data`, `.bin` + fixed-layout `.dat` with a CRC16.
    case nordicLegacy = "nordic-legacy"
    /// A bare MCUboot image signed by `imgtool sign` (one image, `image-0`).
    case mcuboot = "mcuboot"
    /// An nRF Connect SDK `dfu_application.zip`: `{"format-version": 1, "files": [...]}`, one
    /// MCUboot image per `files[]` entry.
    case nrfConnectDFU = "nrf-connect-dfu"
    /// One image file of a format of its own (`StandaloneImageFormat`: GBL, OAD, SUOTA...).
    case standalone = "standalone-image"

    /// Whether the package came from nrfutil (nRF5 SDK): `.bin` + `.dat` images.
    package var isNordic: Bool { self == .nordicSecure || self == .nordicLegacy }

    /// Whether the images are MCUboot images (sent whole over MCUmgr SMP).
    package var isMCUboot: Bool { self == .mcuboot || self == .nrfConnectDFU }
}
