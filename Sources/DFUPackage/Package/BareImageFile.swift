import Foundation

/// Reads a firmware image that is a file of its own rather than a zip entry (a bare MCUboot
/// image), bounded in size.
enum BareImageFile {
    /// The MCUboot magic as the file's first bytes, little-endian and big-endian
    /// (`imgtool sign -e big`, reported as unsupported when parsed).
    private static let magics: [[UInt8]] = [[0x3D, 0xB8, 0xF3, 0x96], [0x96, 0xF3, 0xB8, 0x3D]]

    /// Whether the file at `path` starts with the MCUboot magic. False for a missing file or a
    /// directory: opening it as a zip then reports those.
    static func startsWithMCUbootMagic(path: String) throws(PackageError) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let first = try? handle.read(upToCount: 4) else { return false }
        return magics.contains([UInt8](first))
    }

    static func startsWithMCUbootMagic(_ bytes: [UInt8]) -> Bool {
        magics.contains(Array(bytes.prefix(4)))
    }

    /// Whether the file at `path` starts like an Intel HEX file: a ':' record mark then hex digits.
    static func startsWithIntelHexRecord(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let first = try? handle.read(upToCount: 9).map({ [UInt8]($0) }), first.count == 9,
              first[0] == UInt8(ascii: ":") else { return false }
        return first.dropFirst().allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
    }

    /// The whole file, refusing more than `limit` bytes without reading them.
    static func read(path: String, limit: Int) throws(PackageError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .io(path: path, operation: "read firmware image", reason: "cannot open the file")
        }
        defer { try? handle.close() }
        let data: Data?
        do {
            data = try handle.read(upToCount: limit + 1)
        } catch {
            throw .io(path: path, operation: "read firmware image", reason: error.localizedDescription)
        }
        let bytes = [UInt8](data ?? Data())
        guard bytes.count <= limit else { throw .fileTooLarge(path: path, limit: limit) }
        return bytes
    }

    /// The file's first `count` bytes (fewer for a shorter file); empty when it cannot be read.
    static func head(path: String, count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: count)).map { [UInt8]($0) } ?? []
    }

    static func lastPathComponent(_ path: String) -> String {
        (path as NSString).lastPathComponent
    }
}
