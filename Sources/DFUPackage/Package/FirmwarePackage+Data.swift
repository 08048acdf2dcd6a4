import Foundation

extension FirmwarePackage {
    /// Opens a package held in memory (a download, an embedded resource), in any format
    /// `open(path:)` reads. The bytes are written to a private temporary file that is removed
    /// before this returns (libzip and the format sniffers read files); `name` stands for the
    /// path in error messages and in `path`.
    /// - Throws: what `open(path:)` throws, naming `name`; `.io` when no temporary file can be
    ///   written.
    public static func open(data: Data, name: String = "<data>") throws(PackageError) -> FirmwarePackage {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dfukit-package-\(UUID().uuidString)", isDirectory: true)
        let extensionPart = (name as NSString).pathExtension
        let file = directory.appendingPathComponent(extensionPart.isEmpty ? "package" : "package.\(extensionPart)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            try data.write(to: file)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw .io(path: name, operation: "write a temporary copy of the package",
                      reason: error.localizedDescription)
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let opened: FirmwarePackage
        do {
            opened = try open(path: file.path)
        } catch {
            throw error.renamingPath(file.path, to: name)
        }
        return FirmwarePackage(path: name, format: opened.format, manifest: opened.manifest, images: opened.images)
    }
}

extension PackageError {
    /// The same error with the temporary file's path replaced by the name the caller gave.
    fileprivate func renamingPath(_ temporary: String, to name: String) -> PackageError {
        func rename(_ path: String) -> String { path == temporary ? name : path }
        switch self {
        case let .notAZip(path, reason): return .notAZip(path: rename(path), reason: reason)
        case let .corruptArchive(path, entry, reason): return .corruptArchive(path: rename(path), entry: entry, reason: reason)
        case let .missingManifest(path): return .missingManifest(path: rename(path))
        case let .badManifest(path, key, problem): return .badManifest(path: rename(path), key: key, problem: problem)
        case let .unsupportedFormat(path, found): return .unsupportedFormat(path: rename(path), found: found)
        case let .missingImageFile(path, image, file): return .missingImageFile(path: rename(path), image: image, file: file)
        case let .unsafeEntryName(path, entry, reason): return .unsafeEntryName(path: rename(path), entry: entry, reason: reason)
        case let .entryTooLarge(path, entry, limit): return .entryTooLarge(path: rename(path), entry: entry, limit: limit)
        case let .imageMismatch(path, image, mismatches):
            return .imageMismatch(path: rename(path), image: image, mismatches: mismatches)
        case let .verificationFailed(path, image, check, detail):
            return .verificationFailed(path: rename(path), image: image, check: check, detail: detail)
        case let .badIntelHex(file, line, problem): return .badIntelHex(file: rename(file), line: line, problem: problem)
        case let .hexWithoutImage(path, baseAddress): return .hexWithoutImage(path: rename(path), baseAddress: baseAddress)
        case .invalidBuildInput: return self
        case let .badMCUbootImage(path, error): return .badMCUbootImage(path: rename(path), error: error)
        case let .fileTooLarge(path, limit): return .fileTooLarge(path: rename(path), limit: limit)
        case let .io(path, operation, reason): return .io(path: rename(path), operation: operation, reason: reason)
        }
    }
}
