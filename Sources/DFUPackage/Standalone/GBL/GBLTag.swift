/// One tag of a GBL file as it lies in the file: `u32 id`, `u32 length` (of the rest, the
/// body), then the body; integers little-endian (`GblTagHeader_t`).
public struct GBLTag: Sendable, Equatable {
    /// Which tag it is.
    public var id: GBLTagID
    /// Where the tag (its 8-byte header) starts in the file.
    public var offset: Int
    /// The bytes after its header.
    public var body: [UInt8]

    package static let headerSize = 8

    /// Bytes of the whole tag: header and body.
    public var size: Int { Self.headerSize + body.count }
    /// Where the next tag starts.
    public var end: Int { offset + size }

    /// The little-endian u32 at `offset` of the body, or nil past its end.
    func u32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= body.count else { return nil }
        return GBLTag.u32(body, at: offset)
    }

    static func u32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}
