/// A program data tag's body (`GblProg_t`): the flash address, then the bytes (compressed for
/// the LZ4 and LZMA tags, a patch for the delta tags).
package struct GBLProgramData: Sendable, Equatable {
    package var id: GBLTagID
    package var flashStartAddress: UInt32
    /// Bytes after the address, as the file carries them.
    package var dataCount: Int

    package init?(_ tag: GBLTag) {
        guard tag.id.isProgramData, let address = tag.u32(at: 0) else { return nil }
        id = tag.id
        flashStartAddress = address
        dataCount = tag.body.count - 4
    }

    package var description: String {
        "\(dataCount) bytes at \(GBLApplicationData.hex(flashStartAddress))"
    }
}
