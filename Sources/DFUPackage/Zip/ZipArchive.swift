import CZip
import Foundation

/// A zip archive opened read-only with libzip; owns the `zip_t` handle and closes it on release.
///
/// Opening checks the archive's consistency (`ZIP_CHECKCONS`) and the name of every entry
/// (`ZipEntryName`), so a package with a path-traversal name is refused before anything is read.
/// Reading an entry is bounded by `ZipReadLimit`, never by the sizes the headers claim.
///
/// Not `Sendable`: a libzip archive must not be used from two threads at once. Read what you need,
/// then pass the resulting values (`[UInt8]`, `FirmwarePackage`) around instead.
package final class ZipArchive {
    /// The archive's file path, used in every error message.
    package let path: String
    /// All entries, in central-directory order.
    package let entries: [ZipEntry]
    private let handle: OpaquePointer

    /// Opens the archive at `path`.
    /// - Throws: `PackageError.io` when the file cannot be read, `.notAZip` / `.corruptArchive`
    ///   when it is not a valid zip, `.unsafeEntryName` when any entry name is unsafe.
    package init(path: String) throws(PackageError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .io(path: path, operation: "open package", reason: "no such file")
        }
        if isDirectory.boolValue {
            throw .io(path: path, operation: "open package", reason: "is a directory, not a .zip file")
        }
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
           let size = attributes[.size] as? NSNumber, size.intValue == 0 {
            throw .notAZip(path: path, reason: "the file is empty")
        }

        var errorCode: Int32 = 0
        guard let handle = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &errorCode) else {
            throw Self.openError(path: path, code: errorCode)
        }
        self.handle = handle

        let count = zip_get_num_entries(handle, 0)
        guard count >= 0 else {
            zip_discard(handle)
            throw .corruptArchive(path: path, entry: nil, reason: "cannot count entries")
        }
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(count))
        for index in 0..<UInt64(count) {
            var stat = zip_stat()
            zip_stat_init(&stat)
            guard zip_stat_index(handle, index, 0, &stat) == 0,
                  stat.valid & UInt64(ZIP_STAT_NAME) != 0, let cName = stat.name else {
                let reason = String(cString: zip_strerror(handle))
                zip_discard(handle)
                throw .corruptArchive(path: path, entry: "#\(index)", reason: reason)
            }
            guard let name = String(validatingCString: cName) else {
                zip_discard(handle)
                throw .unsafeEntryName(path: path, entry: String(cString: cName), reason: "not valid UTF-8")
            }
            if let reason = ZipEntryName.unsafeReason(name) {
                zip_discard(handle)
                throw .unsafeEntryName(path: path, entry: name, reason: reason)
            }
            entries.append(ZipEntry(index: index, name: name, size: stat.size, compressedSize: stat.comp_size))
        }
        self.entries = entries
    }

    deinit {
        // Read-only: nothing to write back, so discard rather than close.
        zip_discard(handle)
    }

    /// The entry called exactly `name`, if any.
    package func entry(named name: String) -> ZipEntry? {
        entries.first { $0.name == name }
    }

    /// Reads the entry called `name`, expected to hold about `expectedSize` bytes.
    /// - Returns: `nil` when there is no such entry.
    package func read(named name: String, expectedSize: Int) throws(PackageError) -> [UInt8]? {
        guard let entry = entry(named: name) else { return nil }
        return try read(entry, expectedSize: expectedSize)
    }

    /// Inflates `entry`, reading at most `ZipReadLimit.limit(forExpectedSize:)` bytes.
    /// - Throws: `PackageError.entryTooLarge` as soon as the entry yields more than the limit
    ///   (or its header already claims more), `.corruptArchive` when inflating fails.
    package func read(_ entry: ZipEntry, expectedSize: Int) throws(PackageError) -> [UInt8] {
        let limit = ZipReadLimit.limit(forExpectedSize: expectedSize)
        if entry.size > UInt64(limit) {
            throw .entryTooLarge(path: path, entry: entry.name, limit: limit)
        }
        guard let filePointer = zip_fopen_index(handle, entry.index, 0) else {
            throw .corruptArchive(path: path, entry: entry.name, reason: String(cString: zip_strerror(handle)))
        }
        let file = ZipFileHandle(pointer: filePointer, archive: self)

        // Read one byte past the limit: getting it proves the entry is too large.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(min(entry.size, UInt64(limit))))
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let wanted = min(chunkSize, limit + 1 - bytes.count)
            let got = chunk.withUnsafeMutableBytes { buffer in
                file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
            }
            if got < 0 {
                throw .corruptArchive(path: path, entry: entry.name, reason: file.errorMessage)
            }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[0..<Int(got)])
            if bytes.count > limit {
                throw .entryTooLarge(path: path, entry: entry.name, limit: limit)
            }
        }
        return bytes
    }

    private static func openError(path: String, code: Int32) -> PackageError {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        let message = String(cString: zip_error_strerror(&error))
        zip_error_fini(&error)
        switch code {
        case ZIP_ER_NOZIP:
            return .notAZip(path: path, reason: message)
        case ZIP_ER_OPEN, ZIP_ER_READ, ZIP_ER_NOENT, ZIP_ER_SEEK, ZIP_ER_MEMORY:
            return .io(path: path, operation: "open package", reason: message)
        default:
            return .corruptArchive(path: path, entry: nil, reason: message)
        }
    }
}
