import Foundation

/// Loads profile files (YAML or JSON) into typed `Profile`s, reporting every problem found as
/// `FILE:LINE:COL: error: MESSAGE` lines.
public enum ProfileLoader {
    /// Reads and decodes the profile at `path`.
    public static func load(path: String) throws(ProfileDiagnostics) -> Profile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let message = FileManager.default.fileExists(atPath: path)
                ? "cannot read the profile: \(error.localizedDescription)" : "no such profile file"
            throw ProfileDiagnostics(ProfileError(message, subject: path))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ProfileDiagnostics(ProfileError("the file is not UTF-8 text", subject: path))
        }
        return try load(text: text, path: path)
    }

    /// Decodes profile `text`; `path` names it in diagnostics and in `Profile.path`.
    public static func load(text: String, path: String) throws(ProfileDiagnostics) -> Profile {
        let document = ProfileDocument.parseCollectingErrors(text: text, file: path)
        guard let root = document.root else { throw ProfileDiagnostics(document.errors) }
        let context = DecodingContext(file: path)
        let profile = ProfileDecoder(context: context).decode(root)
        let errors = document.errors + context.errors
        guard errors.isEmpty, let profile else {
            throw ProfileDiagnostics(errors.isEmpty
                ? [ProfileError("the profile could not be decoded", subject: path)] : errors)
        }
        return profile
    }
}
