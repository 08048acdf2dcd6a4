import DFUBytes
/// A firmware package opened from disk: its manifest and every image's bytes.
///
/// Opening checks the archive's structure (zip validity, safe entry names, manifest syntax,
/// bounded entry sizes) but not the images' integrity, so that a damaged package can still be
/// inspected. Anything that sends bytes to a device must call `requireIntact()` first.
public struct FirmwarePackage: Sendable, Equatable {
    /// Where the package was read from; used in error messages.
    public let path: String
    /// Which kind of package it is.
    public let format: PackageFormat
    /// Its manifest (empty for a bare image).
    public let manifest: PackageManifest
    /// The images in send order.
    public let images: [FirmwareImage]

    /// A package read from `path` with these parts.
    public init(path: String, format: PackageFormat, manifest: PackageManifest, images: [FirmwareImage]) {
        self.path = path
        self.format = format
        self.manifest = manifest
        self.images = images
    }

    /// Reads the package at `path`: a zip (DFUKit, nrfutil, nRF Connect SDK or fwupd's Telink
    /// archive), a bare MCUboot image (a file that starts with the MCUboot magic) as a package of
    /// one image, `image-0`, or a standalone image file (`StandaloneImageFormats`).
    /// - Throws: `PackageError` when the file is unreadable, not a zip, corrupt, has an unsafe
    ///   entry name, lacks or has a bad manifest, misses an image file, or holds an entry far
    ///   larger than its manifest declares; `.badMCUbootImage` (with the byte offset) when a bare
    ///   MCUboot image does not parse. Integrity mismatches are *not* thrown here.
    public static func open(path: String) throws(PackageError) -> FirmwarePackage {
        if try BareImageFile.startsWithMCUbootMagic(path: path) {
            return try openBareMCUbootImage(path: path)
        }
        if BareImageFile.startsWithIntelHexRecord(path: path) {
            return try openIntelHexMCUbootImage(path: path)
        }
        if let format = StandaloneImageFormats.format(head: BareImageFile.head(path: path, count: 64), path: path) {
            return try openStandalone(path: path, format: format)
        }
        let archive = try ZipArchive(path: path)
        guard let manifestBytes = try archive.read(named: PackageManifest.entryName,
                                                   expectedSize: PackageManifest.maximumSize) else {
            throw .missingManifest(path: path)
        }
        if let document = try? JSONValue.parse(manifestBytes), TelinkArchive.recognizes(document) {
            return try TelinkArchive.open(archive, manifest: document)
        }
        let manifest = try PackageManifest.parse(manifestBytes, packagePath: path)
        if let nordic = manifest.nordic {
            return try openNordic(archive, manifest: manifest, nordic: nordic)
        }
        if let nrfConnect = manifest.nrfConnect {
            return try openNRFConnect(archive, manifest: manifest, nrfConnect: nrfConnect)
        }
        var images: [FirmwareImage] = []
        for described in manifest.images {
            guard let entry = archive.entry(named: described.file), !entry.isDirectory else {
                throw .missingImageFile(path: path, image: described.name, file: described.file)
            }
            let data = try archive.read(entry, expectedSize: described.size)
            images.append(FirmwareImage(manifestImage: described, data: data))
        }
        return FirmwarePackage(path: path, format: manifest.format, manifest: manifest, images: images)
    }

    private static func openNordic(_ archive: ZipArchive, manifest: PackageManifest,
                                   nordic: NordicManifest) throws(PackageError) -> FirmwarePackage {
        var images: [FirmwareImage] = []
        for described in nordic.images {
            let data = try readEntry(archive, described.binFile, image: described.name,
                                     expectedSize: NordicManifest.maximumImageSize)
            let initPacket = try readEntry(archive, described.datFile, image: described.name,
                                           expectedSize: NordicManifest.maximumInitPacketSize)
            images.append(FirmwareImage(nordicImage: described, format: nordic.format, data: data, initPacket: initPacket))
        }
        return FirmwarePackage(path: archive.path, format: nordic.format, manifest: manifest, images: images)
    }

    private static func openNRFConnect(_ archive: ZipArchive, manifest: PackageManifest,
                                       nrfConnect: NRFConnectManifest) throws(PackageError) -> FirmwarePackage {
        var images: [FirmwareImage] = []
        for described in nrfConnect.files {
            let data = try readEntry(archive, described.file, image: described.imageName,
                                     expectedSize: described.size ?? NRFConnectManifest.maximumImageSize)
            images.append(FirmwareImage(mcubootFile: described.file, data: data, manifestFile: described))
        }
        return FirmwarePackage(path: archive.path, format: .nrfConnectDFU, manifest: manifest, images: images)
    }

    private static func openBareMCUbootImage(path: String) throws(PackageError) -> FirmwarePackage {
        let data = try BareImageFile.read(path: path, limit: NRFConnectManifest.maximumImageSize)
        let image = FirmwareImage(mcubootFile: BareImageFile.lastPathComponent(path), data: data)
        if let error = image.mcubootError { throw .badMCUbootImage(path: path, error: error) }
        return FirmwarePackage(path: path, format: .mcuboot, manifest: .bareMCUbootImage, images: [image])
    }

    /// An MCUboot image as Intel HEX (`imgtool sign --hex-addr`, or Zephyr's `zephyr.signed.hex`):
    /// the data from its lowest address on is the image. Any other HEX file is not a package.
    private static func openIntelHexMCUbootImage(path: String) throws(PackageError) -> FirmwarePackage {
        let hex = try IntelHexReader.read(path: path)
        guard BareImageFile.startsWithMCUbootMagic(hex.bytes) else {
            throw .hexWithoutImage(path: path, baseAddress: hex.baseAddress)
        }
        let image = FirmwareImage(mcubootFile: BareImageFile.lastPathComponent(path), data: hex.bytes)
        if let error = image.mcubootError { throw .badMCUbootImage(path: path, error: error) }
        return FirmwarePackage(path: path, format: .mcuboot, manifest: .bareMCUbootImage, images: [image])
    }

    private static func openStandalone(path: String, format: any StandaloneImageFormat.Type) throws(PackageError) -> FirmwarePackage {
        let data = try BareImageFile.read(path: path, limit: StandaloneImageFormats.maximumSize)
        let read = try format.read(data, path: path)
        let image = FirmwareImage(standalone: read, profile: format.profile,
                                  fileName: BareImageFile.lastPathComponent(path), data: data)
        return FirmwarePackage(path: path, format: .standalone, manifest: .standaloneImage, images: [image])
    }

    private static func readEntry(_ archive: ZipArchive, _ file: String, image: String,
                                  expectedSize: Int) throws(PackageError) -> [UInt8] {
        guard let entry = archive.entry(named: file), !entry.isDirectory else {
            throw .missingImageFile(path: archive.path, image: image, file: file)
        }
        return try archive.read(entry, expectedSize: expectedSize)
    }

    /// The image called `name`, if any.
    public func image(named name: String) -> FirmwareImage? {
        images.first { $0.name == name }
    }

    /// Whether every image passes its integrity checks (see `requireIntact()`).
    package var isIntact: Bool { images.allSatisfy(\.matchesManifest) }

    /// Throws unless every image passes its integrity checks: for DFUKit packages the declared
    /// size, SHA-256 and CRC32; for Nordic packages an init packet that decodes, of the right
    /// type, whose SHA-256 (byte-reversed) or legacy CRC16 and sizes match the `.bin`; for MCUboot
    /// images a header and TLVs that parse, a SHA256 TLV that matches, and the size and version
    /// an nRF Connect SDK manifest declares.
    /// Signatures need a key: see `PackageVerifier`.
    /// - Throws: `PackageError.imageMismatch` for the first damaged image, listing every failed check.
    public func requireIntact() throws(PackageError) {
        try requireIntact(waiving: [:])
    }

    /// As `requireIntact()`, leaving out the checks the device does not make with these
    /// profile parameters (`VerificationCheck.waiver`: a Telink image's trailer with
    /// `firmware_check` 0).
    public func requireIntact(waiving parameters: [String: UInt64]) throws(PackageError) {
        for image in images {
            let mismatches = image.mismatches(waiving: parameters)
            if !mismatches.isEmpty {
                throw .imageMismatch(path: path, image: image.name, mismatches: mismatches)
            }
        }
    }
}
