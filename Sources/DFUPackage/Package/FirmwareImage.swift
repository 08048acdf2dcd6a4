import DFUBytes

/// One firmware image of a package: its bytes, what the manifest declares about them, and what
/// the bytes actually give.
///
/// An image is built even when its bytes disagree with the manifest, so that `inspect` can show
/// the damage; `matchesManifest` / `mismatches` say whether it may be flashed.
public struct FirmwareImage: Sendable, Equatable {
    /// The image's role, e.g. `application`.
    public let name: String
    /// The archive entry the bytes came from.
    package let fileName: String
    /// The version the package declares for it; empty when it declares none.
    public let version: String
    /// The DFU profile that flashes this image.
    public let profile: String
    /// The size the package declares; `nil` when its format declares none.
    package let declaredSize: Int?
    /// The SHA-256 (lowercase hex) the package declares; `nil` when its format declares none.
    package let declaredSHA256: String?
    /// The CRC32 the package declares; `nil` when its format declares none.
    package let declaredCRC32: UInt32?
    /// The image bytes as stored in the package.
    public let data: [UInt8]
    /// SHA-256 of `data`, lowercase hex.
    public let sha256: String
    /// zlib CRC32 of `data`.
    public let crc32: UInt32
    /// Bytes sent before the image by protocols that need them (Nordic's `.dat` init packet);
    /// `nil` for DFUKit packages.
    public let initPacket: [UInt8]?
    /// Bytes of SoftDevice in `data`: the whole image for a SoftDevice, `sd_size` for SD+BL, else 0.
    public let softDeviceSize: Int
    /// Bytes of bootloader in `data`: the whole image for a bootloader, `bl_size` for SD+BL, else 0.
    public let bootloaderSize: Int
    /// Bytes of application in `data`: the whole image for an application (and for every DFUKit
    /// package image), else 0. Nordic bootloaders take these three sizes in their Start request.
    public let applicationSize: Int
    /// `initPacket` decoded (Nordic packages only).
    package let decodedInitPacket: DecodedInitPacket?
    /// The nrfutil manifest entry the image came from (Nordic packages only).
    package let nordicManifestImage: NordicManifestImage?
    /// `data` parsed as an MCUboot image: header, version, TLVs, the SHA256 TLV (MCUboot images
    /// and nRF Connect SDK zips only; `nil` there when the bytes do not parse, see `mcubootError`).
    public let mcubootImage: MCUbootImage?
    /// Why `data` does not parse as an MCUboot image, for an image that should be one.
    package let mcubootError: MCUbootImageError?
    /// The `files[]` entry of an nRF Connect SDK zip the image came from.
    package let nrfConnectManifestFile: NRFConnectManifestFile?
    /// What a standalone format (`StandaloneImageFormat`) read from the file: its checks,
    /// version and details; nil for other images.
    public private(set) var standalone: StandaloneImage?

    /// An image of `data` with what the package declares about it; the checks of the bytes against
    /// the declared values are made here.
    public init(name: String, fileName: String, version: String, profile: String,
                declaredSize: Int?, declaredSHA256: String?, declaredCRC32: UInt32?,
                data: [UInt8], initPacket: [UInt8]? = nil) {
        self.init(name: name, fileName: fileName, version: version, profile: profile, declaredSize: declaredSize,
                  declaredSHA256: declaredSHA256, declaredCRC32: declaredCRC32, data: data, initPacket: initPacket,
                  sizes: (0, 0, data.count), decodedInitPacket: nil, nordicManifestImage: nil)
    }

    private init(name: String, fileName: String, version: String, profile: String,
                 declaredSize: Int?, declaredSHA256: String?, declaredCRC32: UInt32?,
                 data: [UInt8], initPacket: [UInt8]?, sizes: (softDevice: Int, bootloader: Int, application: Int),
                 decodedInitPacket: DecodedInitPacket?, nordicManifestImage: NordicManifestImage?,
                 mcuboot: Result<MCUbootImage, MCUbootImageError>? = nil,
                 nrfConnectManifestFile: NRFConnectManifestFile? = nil) {
        self.name = name
        self.fileName = fileName
        self.version = version
        self.profile = profile
        self.declaredSize = declaredSize
        self.declaredSHA256 = declaredSHA256?.lowercased()
        self.declaredCRC32 = declaredCRC32
        self.data = data
        self.sha256 = SHA256.digest(data).hexString
        self.crc32 = CRC32.checksum(data)
        self.initPacket = initPacket
        self.softDeviceSize = sizes.softDevice
        self.bootloaderSize = sizes.bootloader
        self.applicationSize = sizes.application
        self.decodedInitPacket = decodedInitPacket
        self.nordicManifestImage = nordicManifestImage
        switch mcuboot {
        case let .success(image)?:
            self.mcubootImage = image
            self.mcubootError = nil
        case let .failure(error)?:
            self.mcubootImage = nil
            self.mcubootError = error
        case nil:
            self.mcubootImage = nil
            self.mcubootError = nil
        }
        self.nrfConnectManifestFile = nrfConnectManifestFile
    }

    /// An MCUboot image: the whole file as `data` (what an SMP upload sends), parsed here. Bytes
    /// that do not parse still make an image (see `mcubootError`), so that `inspect` can show it;
    /// `mismatches` then reports it.
    /// - Parameters:
    ///   - fileName: the file or archive entry the bytes came from.
    ///   - data: the whole image file.
    ///   - manifestFile: the nRF Connect SDK manifest entry, if the image came from a zip; its
    ///     `image_index` names the image (`image-1`), else it is `image-0`.
    public init(mcubootFile fileName: String, data: [UInt8], manifestFile: NRFConnectManifestFile? = nil) {
        let parsed = Result { () throws(MCUbootImageError) in try MCUbootImage(bytes: data) }
        let version = (try? parsed.get())?.version.description ?? manifestFile?.version?.description ?? ""
        self.init(name: MCUbootImage.imageName(index: manifestFile?.imageIndex ?? 0), fileName: fileName,
                  version: version, profile: "", declaredSize: manifestFile?.size, declaredSHA256: nil,
                  declaredCRC32: nil, data: data, initPacket: nil, sizes: (0, 0, data.count), decodedInitPacket: nil,
                  nordicManifestImage: nil, mcuboot: parsed, nrfConnectManifestFile: manifestFile)
    }

    /// A standalone image file (a GBL, an OAD or SUOTA image...): the whole file is the image
    /// (named `application`), its checks those its format read.
    public init(standalone: StandaloneImage, profile: String, fileName: String, data: [UInt8]) {
        self.init(name: "application", fileName: fileName, version: standalone.version, profile: profile,
                  declaredSize: nil, declaredSHA256: nil, declaredCRC32: nil, data: data, initPacket: nil,
                  sizes: (0, 0, data.count), decodedInitPacket: nil, nordicManifestImage: nil)
        self.standalone = standalone
    }

    /// Whether the image is (or should be) an MCUboot image.
    package var isMCUboot: Bool { mcubootImage != nil || mcubootError != nil }

    /// The MCUboot image number (SMP's `image`): the manifest's `image_index`, 0 for a bare
    /// image; `nil` for other images.
    package var mcubootImageIndex: Int? {
        isMCUboot ? nrfConnectManifestFile?.imageIndex ?? 0 : nil
    }

    /// An image of a Nordic package: the `.bin` bytes and the `.dat` init packet, decoded here.
    /// An init packet that does not decode still makes an image (see `decodedInitPacket`), so
    /// that `inspect` can show it; `mismatches` then reports it.
    public init(nordicImage image: NordicManifestImage, format: PackageFormat, data: [UInt8], initPacket: [UInt8]) {
        let decoded = DecodedInitPacket(bytes: initPacket, format: format)
        var version = ""
        var sizes = (softDevice: 0, bootloader: 0, application: 0)
        switch decoded {
        case let .secure(packet):
            version = packet.initCommand.firmwareVersion.map { String($0) } ?? ""
        case let .legacy(packet):
            version = String(packet.applicationVersion)
        case .undecodable:
            break
        }
        switch image.kind {
        case .application: sizes.application = data.count
        case .softDevice: sizes.softDevice = data.count
        case .bootloader: sizes.bootloader = data.count
        case .softDeviceBootloader:
            var initCommand: NordicInitCommand?
            if case let .secure(packet) = decoded { initCommand = packet.initCommand }
            sizes.softDevice = image.softDeviceSize ?? initCommand?.softDeviceSize.map { Int($0) } ?? 0
            sizes.bootloader = image.bootloaderSize ?? initCommand?.bootloaderSize.map { Int($0) }
                ?? max(0, data.count - sizes.softDevice)
        }
        self.init(name: image.name, fileName: image.binFile, version: version, profile: "", declaredSize: nil,
                  declaredSHA256: nil, declaredCRC32: nil, data: data, initPacket: initPacket, sizes: sizes,
                  decodedInitPacket: decoded, nordicManifestImage: image)
    }

    /// The decoded Secure DFU init packet, if the image has one that decodes.
    package var nordicInitPacket: NordicInitPacket? {
        if case let .secure(packet)? = decodedInitPacket { return packet }
        return nil
    }

    /// The decoded legacy init packet, if the image has one that decodes.
    package var legacyInitPacket: LegacyInitPacket? {
        if case let .legacy(packet)? = decodedInitPacket { return packet }
        return nil
    }

    /// An image described by a manifest entry, with the bytes read from the archive.
    public init(manifestImage image: ManifestImage, data: [UInt8]) {
        self.init(name: image.name, fileName: image.file, version: image.version, profile: image.profile,
                  declaredSize: image.size, declaredSHA256: image.sha256, declaredCRC32: image.crc32,
                  data: data)
    }

    /// Number of bytes in `data`.
    public var size: Int { data.count }

    /// Every declared value that the bytes do not match: for DFUKit packages in the order size,
    /// SHA-256, CRC32; for Nordic packages the failed `integrityChecks` (init packet, type, hash,
    /// sizes, CRC16).
    package var mismatches: [ImageMismatch] {
        integrityChecks.compactMap(\.mismatch)
    }

    /// The failed checks the device still makes with these profile parameters (a check it
    /// makes only in another configuration is waived).
    package func mismatches(waiving parameters: [String: UInt64]) -> [ImageMismatch] {
        integrityChecks.filter { !$0.isWaived(by: parameters) }.compactMap(\.mismatch)
    }

    /// `mismatches` as sentences, for reports.
    package var problems: [String] { mismatches.map(\.description) }

    /// Whether the bytes match everything the package declares about them.
    public var matchesManifest: Bool { mismatches.isEmpty }
}
