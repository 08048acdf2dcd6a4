/// One entry of a zip archive as its central directory describes it.
///
/// `size` is what the headers claim; headers can lie, so readers never trust it to bound
/// memory (see `ZipReadLimit`).
public struct ZipEntry: Sendable, Equatable {
    /// Position in the archive's central directory.
    public let index: UInt64
    /// Path inside the archive, `/`-separated; already checked by `ZipEntryName`.
    public let name: String
    /// Uncompressed size claimed by the headers.
    public let size: UInt64
    /// Compressed size claimed by the headers.
    package let compressedSize: UInt64

    /// An entry as the central directory describes it.
    public init(index: UInt64, name: String, size: UInt64, compressedSize: UInt64) {
        self.index = index
        self.name = name
        self.size = size
        self.compressedSize = compressedSize
    }

    /// Directory entries end with `/` and hold no data.
    package var isDirectory: Bool { name.hasSuffix("/") }
}
