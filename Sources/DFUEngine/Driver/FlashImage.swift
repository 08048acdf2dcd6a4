import DFUBytes

/// One image to flash, with the values the profile's `image.*` variables expose.
public struct FlashImage: Sendable {
    public var name: String
    public var version: String
    public var data: [UInt8]
    public var crc32: UInt32
    public var sha256: [UInt8]

    public init(name: String, version: String, data: [UInt8]) {
        self.name = name
        self.version = version
        self.data = data
        self.crc32 = CRC32.checksum(data)
        self.sha256 = SHA256.digest(data)
    }

    /// `image` as profiles see it.
    var record: Value {
        .record([
            "name": .string(name),
            "version": .string(version),
            "data": .bytes(data),
            "size": .integer(UInt64(data.count)),
            "crc32": .integer(UInt64(crc32)),
            "sha256": .bytes(sha256),
        ])
    }
}
