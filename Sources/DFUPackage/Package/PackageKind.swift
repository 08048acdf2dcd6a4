/// What kind of package a file is, as a profile names the kinds it takes (`packages:`): the
/// zip formats of `PackageFormat` and each standalone image format by its own name, since a
/// GBL file and an OAD image are standalone alike but go to different devices.
public struct PackageKind: Sendable, Hashable, CustomStringConvertible {
    /// `nordic-secure`, `mcuboot`, `silabs-gbl`...
    public let name: String
    /// What a person calls it ("Nordic Secure DFU package (nrfutil pkg generate)").
    public let summary: String

    public var description: String { name }

    /// Every kind DFUKit reads, in a fixed order.
    public static let all: [PackageKind] = [
        PackageKind(name: PackageFormat.dfukit.rawValue, summary: "DFUKit package (dfukit package create)"),
        PackageKind(name: PackageFormat.nordicSecure.rawValue, summary: "Nordic Secure DFU package (nrfutil pkg generate)"),
        PackageKind(name: PackageFormat.nordicLegacy.rawValue,
                    summary: "Nordic legacy DFU package (nrfutil 0.5, adafruit-nrfutil dfu genpkg)"),
        PackageKind(name: PackageFormat.mcuboot.rawValue, summary: "MCUboot image (imgtool sign)"),
        PackageKind(name: PackageFormat.nrfConnectDFU.rawValue, summary: "nRF Connect SDK MCUboot package (dfu_application.zip)"),
    ] + StandaloneImageFormats.all.map { PackageKind(name: $0.name, summary: $0.description) }

    /// The kind called `name`, if DFUKit knows it.
    public static func named(_ name: String) -> PackageKind? {
        all.first { $0.name == name }
    }
}

extension FirmwarePackage {
    /// The package's kind: its format, or for a standalone image file the image's format
    /// (fwupd's Telink archive holds a Telink binary: `telink-bin`).
    public var kind: PackageKind {
        let name = format == .standalone ? images.first?.standalone?.format ?? format.rawValue : format.rawValue
        return PackageKind.named(name) ?? PackageKind(name: name, summary: name)
    }
}
