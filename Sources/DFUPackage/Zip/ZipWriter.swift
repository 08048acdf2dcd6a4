import CZip
import Foundation

/// Writes a new zip archive with libzip; owns the `zip_t` handle.
///
/// libzip writes nothing until `close()`: it keeps the added sources and reads them then. Each
/// entry's bytes are therefore copied into a `malloc`'d buffer that libzip frees itself
/// (`freep = 1`); a Swift array's storage would be gone by then. Dropping a writer without
/// `close()` discards the archive (libzip writes to a temporary file and renames on close, so a
/// half-written package never appears at `path`).
package final class ZipWriter {
    /// How an entry's bytes are stored.
    package enum Compression: Sendable {
        /// Stored as is (Nordic's nrfutil makes such packages).
        case store
        /// Deflated.
        case deflate
    }

    package let path: String
    private var handle: OpaquePointer?

    /// Every entry gets this modification time, so the same inputs make byte-identical packages.
    /// (2000-01-01T00:00:00Z; DOS timestamps cannot hold the Unix epoch.)
    static let fixedModificationTime = time_t(946_684_800)

    /// Creates (or truncates) the archive at `path`.
    package init(path: String) throws(PackageError) {
        self.path = path
        var errorCode: Int32 = 0
        guard let handle = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &errorCode) else {
            var error = zip_error_t()
            zip_error_init_with_code(&error, errorCode)
            let message = String(cString: zip_error_strerror(&error))
            zip_error_fini(&error)
            throw .io(path: path, operation: "create package", reason: message)
        }
        self.handle = handle
    }

    deinit {
        if let handle { zip_discard(handle) }
    }

    /// Adds an entry called `name` holding `bytes`.
    /// - Throws: `.unsafeEntryName` for names `ZipEntryName` refuses, `.io` when libzip fails.
    package func add(name: String, bytes: [UInt8], compression: Compression = .deflate) throws(PackageError) {
        try ZipEntryName.validate(name, in: path)
        guard let handle else {
            throw .io(path: path, operation: "add '\(name)'", reason: "the archive is already closed")
        }
        guard let copy = malloc(max(1, bytes.count)) else {
            throw .io(path: path, operation: "add '\(name)'", reason: "out of memory")
        }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { copy.copyMemory(from: base, byteCount: source.count) }
        }
        guard let source = zip_source_buffer(handle, copy, UInt64(bytes.count), 1) else {
            free(copy)
            throw .io(path: path, operation: "add '\(name)'", reason: String(cString: zip_strerror(handle)))
        }
        let index = zip_file_add(handle, name, source, ZIP_FL_ENC_UTF_8)
        guard index >= 0 else {
            // On failure the source (and with it the copy) is still ours.
            zip_source_free(source)
            throw .io(path: path, operation: "add '\(name)'", reason: String(cString: zip_strerror(handle)))
        }
        let method: Int32 = compression == .store ? ZIP_CM_STORE : ZIP_CM_DEFLATE
        guard zip_set_file_compression(handle, UInt64(index), method, 0) == 0,
              zip_file_set_mtime(handle, UInt64(index), Self.fixedModificationTime, 0) == 0 else {
            throw .io(path: path, operation: "add '\(name)'", reason: String(cString: zip_strerror(handle)))
        }
    }

    /// Writes the archive to `path`. The writer cannot be used afterwards.
    package func close() throws(PackageError) {
        guard let handle else { return }
        guard zip_close(handle) == 0 else {
            let reason = String(cString: zip_strerror(handle))
            zip_discard(handle)
            self.handle = nil
            throw .io(path: path, operation: "write package", reason: reason)
        }
        self.handle = nil
    }
}
