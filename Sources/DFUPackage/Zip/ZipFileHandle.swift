import CZip

/// Owns one open entry (`zip_file_t`) of a `ZipArchive` and closes it when released.
final class ZipFileHandle {
    let pointer: OpaquePointer
    /// Keeps the archive open for as long as this entry is being read.
    let archive: ZipArchive

    init(pointer: OpaquePointer, archive: ZipArchive) {
        self.pointer = pointer
        self.archive = archive
    }

    deinit {
        zip_fclose(pointer)
    }

    /// Reads up to `count` bytes into `buffer`; returns 0 at the end, -1 on error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int64 {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return zip_fread(pointer, base, UInt64(buffer.count))
    }

    var errorMessage: String { String(cString: zip_file_strerror(pointer)) }
}
