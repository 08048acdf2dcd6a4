/// The bootloader tag's fixed part (`GblBootloader_t`): the new bootloader's version and base
/// address; its image follows.
package struct GBLBootloaderUpgrade: Sendable, Equatable {
    /// The new bootloader's version.
    public var version: UInt32
    /// Where the new bootloader goes in flash.
    public var address: UInt32
    /// The bootloader image's size in bytes.
    public var imageSize: Int

    /// The fixed part of `tag`; nil unless it is a bootloader tag.
    public init?(_ tag: GBLTag) {
        guard tag.id == .bootloader, let version = tag.u32(at: 0), let address = tag.u32(at: 4) else { return nil }
        self.version = version
        self.address = address
        imageSize = tag.body.count - 8
    }
}

/// The SE upgrade tag's fixed part (`GblSeUpgrade_t`): blob size and Secure Engine version.
package struct GBLSEUpgrade: Sendable, Equatable {
    package var blobSize: UInt32
    /// The Secure Engine version the blob installs.
    public var version: UInt32

    /// The fixed part of `tag`; nil unless it is an SE upgrade tag.
    public init?(_ tag: GBLTag) {
        guard tag.id == .seUpgrade, let size = tag.u32(at: 0), let version = tag.u32(at: 4) else { return nil }
        blobSize = size
        self.version = version
    }
}

/// One entry of a version dependency tag (`VersionDependency_t`, 8 bytes): which image (1
/// application, 2 bootloader, 3 SE), a statement (operator in the low nibble: 0 <, 2 <=, 4 ==,
/// 6 >=, 8 >; bit 0 negates), and the version it compares with.
public struct GBLVersionDependency: Sendable, Equatable {
    package var imageType: UInt8
    package var statement: UInt8
    /// The version the dependency compares with.
    public var version: UInt32

    /// The entries of a version dependency tag; nil unless `tag` is one whose body is a whole number
    /// of 8-byte entries.
    public static func entries(_ tag: GBLTag) -> [GBLVersionDependency]? {
        guard tag.id == .versionDependency, tag.body.count % 8 == 0 else { return nil }
        return stride(from: 0, to: tag.body.count, by: 8).map { offset in
            GBLVersionDependency(imageType: tag.body[offset], statement: tag.body[offset + 1],
                                 version: GBLTag.u32(tag.body, at: offset + 4))
        }
    }

    /// "application >= 0x00010000": the image, the comparison and the version.
    public var description: String {
        let image = [1: "application", 2: "bootloader", 3: "SE"][Int(imageType)] ?? "image type \(imageType)"
        let operators = [0: "<", 2: "<=", 4: "==", 6: ">=", 8: ">"]
        let op = operators[Int(statement & 0x0E)] ?? "op \(statement & 0x0E)"
        return "\(image) \(statement & 1 == 1 ? "not " : "")\(op) \(GBLApplicationData.hex(version))"
    }
}
