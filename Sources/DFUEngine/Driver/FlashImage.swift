import DFUBytes

/// One image to flash, with the values the profile's `image.*` variables expose.
public struct FlashImage: Sendable {
    /// The image's role in its package: `application`, `softdevice`, `bootloader`, ...
    public var name: String
    /// The version the package declares for it, as text ("1.2.0"); may be empty.
    public var version: String
    /// The bytes to send.
    public var data: [UInt8]
    /// The CRC-32 (IEEE) of `data`, computed when the image is made.
    public var crc32: UInt32
    /// The SHA-256 of `data` (32 bytes), computed when the image is made.
    public var sha256: [UInt8]
    /// The init packet (Nordic `.dat`), empty when the package has none.
    public var initPacket: [UInt8]
    /// SoftDevice, bootloader and application bytes inside `data` (Nordic packets announce them).
    public var softDeviceSize: Int
    /// Bootloader bytes inside `data` (0 when none).
    public var bootloaderSize: Int
    /// Application bytes inside `data`.
    public var applicationSize: Int
    /// The hash a device knows the image by (MCUboot's SHA256 TLV), empty when it has none.
    public var imageHash: [UInt8]
    /// Numbers the image file's own format read from it (a GBL's `app_version`...), for
    /// profiles as `image.info.NAME`; empty for other packages.
    public var info: [String: UInt64] = [:]

    /// An image of `data`; its CRC-32 and SHA-256 are computed here. `applicationSize` defaults to
    /// what is left of `data` after the SoftDevice and bootloader.
    public init(name: String, version: String, data: [UInt8], initPacket: [UInt8] = [],
                softDeviceSize: Int = 0, bootloaderSize: Int = 0, applicationSize: Int? = nil,
                imageHash: [UInt8] = []) {
        self.imageHash = imageHash
        self.name = name
        self.version = version
        self.data = data
        self.crc32 = CRC32.checksum(data)
        self.sha256 = SHA256.digest(data)
        self.initPacket = initPacket
        self.softDeviceSize = softDeviceSize
        self.bootloaderSize = bootloaderSize
        self.applicationSize = applicationSize ?? (softDeviceSize + bootloaderSize == 0 ? data.count : 0)
    }

    /// `image` as profiles see it, for image `index` of `count`.
    func record(index: Int, count: Int) -> Value {
        .record([
            "name": .string(name),
            "version": .string(version),
            "data": .bytes(data),
            "size": .integer(UInt64(data.count)),
            "crc32": .integer(UInt64(crc32)),
            "sha256": .bytes(sha256),
            "init_packet": .bytes(initPacket),
            "index": .integer(UInt64(index)),
            "count": .integer(UInt64(count)),
            "last": .boolean(index == count - 1),
            "sd_size": .integer(UInt64(softDeviceSize)),
            "bl_size": .integer(UInt64(bootloaderSize)),
            "app_size": .integer(UInt64(applicationSize)),
            "hash": .bytes(imageHash),
            "info": .record(info.mapValues { .integer($0) }),
        ])
    }
}
