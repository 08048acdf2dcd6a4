/// A program data tag's body (`GblProg_t`): the flash address, then the bytes (compressed for
/// the LZ4 and LZMA tags, a patch for the delta tags).
public struct GBLProgramData: Sendable, Equatable {
    public var id: GBLTagID
    public var flashStartAddress: UInt32
    /// Bytes after the address, as the file carries them.
    public var dataCount: Int

    public init?(_ tag: GBLTag) {
        guard tag.id.isProgramData, let address = tag.u32(at: 0) else { return nil }
        id = tag.id
        flashStartAddress = address
        dataCount = tag.body.count - 4
    }

    public var description: String {
        "\(dataCount) bytes at \(GBLApplicationData.hex(flashStartAddress))"
    }
}
