/// The contents of an nrfutil package's `manifest.json` (`{"manifest": {...}}`).
public struct NordicManifest: Sendable, Equatable {
    /// The most bytes a `.bin` may have; more is refused as a possible zip bomb.
    package static let maximumImageSize = 16 * 1024 * 1024
    /// The most bytes a `.dat` may have (a Secure DFU command object holds at most 512).
    package static let maximumInitPacketSize = 4096

    /// `dfu_version` of a legacy manifest (0.5); `nil` for Secure DFU packages.
    package let legacyDFUVersion: Double?
    /// The images in send order: SD+BL, SD, BL, application.
    public let images: [NordicManifestImage]

    /// A manifest of `images` (sorted into send order), legacy when `legacyDFUVersion` is given.
    public init(legacyDFUVersion: Double?, images: [NordicManifestImage]) {
        self.legacyDFUVersion = legacyDFUVersion
        self.images = images.sorted { sendRank($0.kind) < sendRank($1.kind) }
    }

    /// Whether this is a legacy (SDK <= 11) package.
    package var isLegacy: Bool { legacyDFUVersion != nil || images.contains { $0.legacyInitPacketData != nil } }

    /// `.nordicLegacy` for an SDK 11 or older package, else `.nordicSecure`.
    public var format: PackageFormat { isLegacy ? .nordicLegacy : .nordicSecure }
}

private func sendRank(_ kind: NordicImageKind) -> Int {
    NordicImageKind.allCases.firstIndex(of: kind) ?? Int.max
}
