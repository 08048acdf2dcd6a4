import DFUBytes
/// What `dfukit package inspect` reports about a package: per image, what it holds and whether
/// it matches the manifest.
public struct PackageInspection: Sendable, Equatable {
    /// The report's line for one image. `size`, `sha256` and `crc32` are computed from the bytes.
    public struct Image: Sendable, Equatable {
        /// The image's role (`application`, `softdevice`...).
        public let name: String
        /// Its entry in the package (or the file itself, for a bare image).
        public let file: String
        /// Its size in bytes, from the bytes.
        public let size: Int
        /// Its SHA-256 (lowercase hex), from the bytes.
        public let sha256: String
        /// Its CRC-32 (IEEE), from the bytes.
        public let crc32: UInt32
        /// The version the package declares for it.
        public let version: String
        /// The profile the package was made for; empty when it does not say.
        public let profile: String
        /// True when every check of the bytes against what the package declares passed.
        public let matchesManifest: Bool
        /// One sentence per failed check; empty when the image matches.
        package let problems: [String]
        /// Nordic packages: the `.dat` entry, the three sizes, the decoded init packet and every
        /// integrity check; `nil` for DFUKit packages.
        public let nordic: NordicImageReport?
        /// MCUboot images: header, TLVs, the nRF Connect SDK manifest entry and every integrity
        /// check; `nil` for other images.
        public let mcuboot: MCUbootImageReport?
        /// Standalone image files: what their format read; `nil` for other images.
        public let standalone: StandaloneImage?

        /// The report's line for `image`.
        public init(_ image: FirmwareImage) {
            name = image.name
            file = image.fileName
            size = image.size
            sha256 = image.sha256
            crc32 = image.crc32
            version = image.version
            profile = image.profile
            matchesManifest = image.matchesManifest
            problems = image.problems
            nordic = image.decodedInitPacket == nil ? nil : NordicImageReport(image)
            mcuboot = MCUbootImageReport(image)
            standalone = image.standalone
        }
    }

    /// The package file inspected.
    public let packagePath: String
    /// E.g. `dfukit-package v1`.
    public let format: String
    /// One line per image, in send order.
    public let images: [Image]

    /// The inspection of an opened `package`.
    public init(package: FirmwarePackage) {
        packagePath = package.path
        switch package.format {
        case .dfukit: format = "\(package.format.rawValue) v\(package.manifest.formatVersion)"
        case .nordicSecure: format = "\(package.format.rawValue) (nrfutil, Secure DFU)"
        case .nordicLegacy:
            let version = package.manifest.nordic?.legacyDFUVersion.map { "\($0)" } ?? "?"
            format = "\(package.format.rawValue) (legacy DFU, dfu_version \(version))"
        case .mcuboot: format = "\(package.format.rawValue) (bare image signed by imgtool)"
        case .nrfConnectDFU:
            format = "\(package.format.rawValue) (nRF Connect SDK dfu_application.zip, format-version \(package.manifest.formatVersion))"
        case .standalone:
            let name = package.images.first?.standalone?.format ?? "?"
            let description = StandaloneImageFormats.all.first { $0.name == name }?.description ?? name
            format = "\(name) (\(description))"
        }
        images = package.images.map(Image.init)
    }

    /// Opens the package at `path` and inspects it. A package whose images do not match its
    /// manifest is reported, not thrown.
    public static func inspect(path: String) throws(PackageError) -> PackageInspection {
        PackageInspection(package: try FirmwarePackage.open(path: path))
    }

    /// Whether every image matches the manifest.
    package var isIntact: Bool { images.allSatisfy(\.matchesManifest) }

    /// Whether it is intact and no image holds what its bootloader is known to refuse.
    public var isFlashable: Bool { isIntact && images.allSatisfy { $0.standalone?.refusals.isEmpty ?? true } }

    /// A human-readable report, ending with a newline.
    public func renderText() -> String {
        var lines = ["package: \(packagePath)", "format:  \(format)"]
        for image in images {
            lines.append("image \(image.name):")
            lines.append("  file:    \(image.file)")
            lines.append("  size:    \(image.size) bytes")
            lines.append("  sha256:  \(image.sha256)")
            lines.append("  crc32:   \(ManifestImage.formatCRC32(image.crc32))")
            if let mcuboot = image.mcuboot {
                lines.append("  version: \(image.version.isEmpty ? "(none)" : image.version)")
                lines += mcuboot.textLines()
                lines.append("  status:  \(image.matchesManifest ? "passes its checks" : "FAILS ITS CHECKS")")
                for problem in image.problems {
                    lines.append("    - \(problem)")
                }
                continue
            }
            if let standalone = image.standalone {
                lines.append("  version: \(image.version.isEmpty ? "(none)" : image.version)")
                lines.append("  profile: \(image.profile)")
                for detail in standalone.details { lines.append("  \(detail.key): \(detail.value)") }
                for check in standalone.checks {
                    lines.append("  \(check.passed ? "ok  " : "FAIL") \(check.check.rawValue): \(check.detail)")
                }
                lines.append("  status:  \(image.matchesManifest ? "passes its checks" : "FAILS ITS CHECKS")")
                continue
            }
            if let nordic = image.nordic {
                lines.append("  version: \(image.version.isEmpty ? "(none)" : image.version)")
                lines += nordic.textLines()
                lines.append("  status:  \(image.matchesManifest ? "passes its checks" : "FAILS ITS CHECKS")")
                for problem in image.problems {
                    lines.append("    - \(problem)")
                }
                continue
            }
            lines.append("  version: \(image.version)")
            lines.append("  profile: \(image.profile)")
            lines.append("  status:  \(image.matchesManifest ? "matches manifest" : "DOES NOT MATCH MANIFEST")")
            for problem in image.problems {
                lines.append("    - \(problem)")
            }
        }
        let refusals = images.flatMap { $0.standalone?.refusals ?? [] }
        if !isIntact {
            lines.append("result:  DAMAGED; do not flash this package")
        } else if !refusals.isEmpty {
            lines.append("result:  intact, but NOT FLASHABLE: " + refusals.joined(separator: "; "))
        } else {
            lines.append("result:  intact")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON with stable keys: `package`, `format`, `images` (each with `name`,
    /// `file`, `size`, `sha256`, `crc32` as `"0x…"`, `version`, `profile`, `matches_manifest`,
    /// `problems`; Nordic images add `softdevice_size`, `bootloader_size`, `application_size`,
    /// `init_packet_file`, `init_packet` with every decoded field, `hash_matches` or
    /// `crc16_matches`, and `checks`; MCUboot images add `mcuboot` with `image_index`, `manifest`,
    /// `header`, `version`, `hashed_size`, `hash_algorithm`, `hash_tlv`, `hash_computed`, `tlvs` (each `type`,
    /// `type_name`, `protected`, `offset`, `length`, `value` in hex) and `trailing_bytes` (or
    /// `error`), then `hash_matches` and `checks`), ending with a newline.
    public func renderJSON() -> String {
        JSONValue.object([
            ("package", .string(packagePath)),
            ("format", .string(format)),
            ("images", .array(images.map { image in
                var members: [(key: String, value: JSONValue)] = [
                    ("name", .string(image.name)),
                    ("file", .string(image.file)),
                    ("size", .integer(Int64(image.size))),
                    ("sha256", .string(image.sha256)),
                    ("crc32", .string(ManifestImage.formatCRC32(image.crc32))),
                    ("version", .string(image.version)),
                    ("profile", .string(image.profile)),
                    ("matches_manifest", .bool(image.matchesManifest)),
                    ("problems", .array(image.problems.map(JSONValue.string))),
                ]
                if let nordic = image.nordic { members += nordic.jsonMembers() }
                if let mcuboot = image.mcuboot { members += mcuboot.jsonMembers() }
                if let standalone = image.standalone {
                    members.append(("standalone", .object(standalone.details.map { ($0.key, JSONValue.string($0.value)) })))
                    members.append(("checks", .array(standalone.checks.map { check in
                        .object([("check", .string(check.check.rawValue)), ("passed", .bool(check.passed)),
                                 ("detail", .string(check.detail))])
                    })))
                }
                return .object(members)
            })),
        ]).prettyText
    }
}
