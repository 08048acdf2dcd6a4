import Foundation

extension ProfileLoader {
    /// Decodes a profile from bytes (YAML or JSON, UTF-8) that did not come from a file: an
    /// embedded resource, a download. `name` stands for the file in diagnostics
    /// (`NAME:LINE:COL: error: ...`) and in `Profile.path`.
    /// - Throws: `ProfileDiagnostics` with every problem found, as for a file.
    public static func load(data: Data, name: String = "<data>") throws(ProfileDiagnostics) -> Profile {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ProfileDiagnostics(ProfileError("the profile is not UTF-8 text", subject: name))
        }
        return try load(text: text, path: name)
    }
}
