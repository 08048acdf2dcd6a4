import Foundation

extension Preflight {
    /// A session recording can be written to `path`: it is not a directory, its directory exists
    /// and may be written to, and an existing file there may be replaced.
    /// - Throws: `.usage`, naming the path and what to do.
    public static func recordFile(_ path: String) throws(DFUKitError) {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/") || (files.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            throw refusal(path, "it is a directory; a recording is one file", "name a file, e.g. \(path.hasSuffix("/") ? path : path + "/")session.dfurec")
        }
        let directory = (path as NSString).deletingLastPathComponent
        try writableDirectory(directory.isEmpty ? "." : directory, for: path)
        if files.fileExists(atPath: path), !files.isWritableFile(atPath: path) {
            throw refusal(path, "the file exists and may not be written", "give another file, or make this one writable")
        }
    }

    /// A batch can record each attempt in `directory`: it is a directory that may be written to,
    /// or does not exist yet in a directory that may be written to (it is then created when the
    /// batch starts).
    /// - Throws: `.usage`, naming the directory and what to do.
    public static func recordDirectory(_ directory: String) throws(DFUKitError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw refusal(directory, "it is a file; a batch records one file per device and attempt in a directory",
                              "name a directory (it is created when missing)")
            }
            try writableDirectory(directory, for: directory)
        } else {
            let parent = (directory as NSString).deletingLastPathComponent
            try writableDirectory(parent.isEmpty ? "." : parent, for: directory)
        }
    }

    /// Creates a batch's record directory when missing.
    /// - Throws: `.usage` when it cannot be created.
    static func createRecordDirectory(_ directory: String) throws(DFUKitError) {
        try recordDirectory(directory)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        } catch {
            guard !FileManager.default.fileExists(atPath: directory) else { return }
            throw refusal(directory, "it cannot be created: \(error.localizedDescription)", "record to a directory you may write to")
        }
    }

    private static func writableDirectory(_ directory: String, for path: String) throws(DFUKitError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw refusal(path, "the directory '\(directory)' does not exist", "create it first, or record elsewhere")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw refusal(path, "the directory '\(directory)' may not be written to", "record to a directory you may write to")
        }
    }

    private static func refusal(_ path: String, _ problem: String, _ remedy: String) -> DFUKitError {
        DFUKitError(kind: .usage, message: "cannot record the session to '\(path)': \(problem); \(remedy)."
                    + "\nnothing was sent to the device.")
    }
}
