/// The checksum algorithms a framing's trailer may name (`checksum: NAME` in a profile).
///
/// `lookup` is the one place names become algorithms: when the CRC RevEng catalogue
/// (`crc(NAME, bytes)` in `Checksums`) lands, its body becomes a lookup into that catalogue
/// (width: the CRC's bits rounded up to bytes) and `names` lists the catalogue's names.
public enum FrameChecksumCatalogue {
    /// An algorithm: its width in bytes (1...8) and its value over the bytes it covers.
    public typealias Algorithm = (width: Int, compute: @Sendable ([UInt8]) -> UInt64)

    /// The algorithm called `name`, or nil.
    public static func lookup(_ name: String) -> Algorithm? {
        switch name {
        case "crc16", "CRC-16/CCITT-FALSE", "CRC-16/IBM-3740":
            return (2, { UInt64(CRC16CCITTFalse.checksum($0)) })
        case "crc32", "CRC-32/ISO-HDLC":
            return (4, { UInt64(CRC32.checksum($0)) })
        default:
            return nil
        }
    }

    /// The names `lookup` knows, for error messages and suggestions.
    public static let names = ["crc16", "crc32", "CRC-16/CCITT-FALSE", "CRC-16/IBM-3740", "CRC-32/ISO-HDLC"]
}
