/// Rules for names inside a package archive.
///
/// A package is data from outside, and a later tool may extract it to disk; a name that is
/// absolute, climbs with `..`, uses Windows separators or drive letters, or hides a NUL could
/// then write outside the target directory ("zip slip"). Such names are refused everywhere:
/// in the archive's directory, in the manifest's `file` keys, and in the builder.
package enum ZipEntryName {
    /// Returns why `name` is unsafe, or `nil` when it is a safe relative path.
    package static func unsafeReason(_ name: String) -> String? {
        if name.isEmpty { return "empty name" }
        if name.unicodeScalars.contains("\u{0}") { return "contains a NUL character" }
        if name.contains("\\") { return "contains a backslash" }
        if name.hasPrefix("/") { return "absolute path" }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        if let first = components.first, first.count >= 2, first.dropFirst().first == ":" {
            return "starts with a drive letter"
        }
        for (offset, component) in components.enumerated() {
            if component == ".." { return "contains a '..' component" }
            if component == "." { return "contains a '.' component" }
            // A trailing slash marks a directory entry; an empty component elsewhere is "a//b".
            if component.isEmpty && offset != components.count - 1 { return "contains an empty component" }
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "contains a control character"
        }
        return nil
    }

    /// Throws `PackageError.unsafeEntryName` when `name` is unsafe.
    package static func validate(_ name: String, in path: String) throws(PackageError) {
        if let reason = unsafeReason(name) {
            throw .unsafeEntryName(path: path, entry: name, reason: reason)
        }
    }
}
