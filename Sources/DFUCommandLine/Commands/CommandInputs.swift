import DFUKit

/// The inputs commands share, loaded with their errors printed: a profile by name or path, a
/// package whose bytes pass their checks.
enum CommandInputs {
    /// The profile, or nil after printing every error (exit 65).
    static func profile(_ nameOrPath: String, console: any Console) -> Profile? {
        do {
            return try ProfileLibrary.standard().load(nameOrPath)
        } catch {
            console.error(error.description)
            return nil
        }
    }

    /// The package with every checksum verified, or nil after printing why not (exit 65).
    static func intactPackage(_ path: String, console: any Console) -> FirmwarePackage? {
        do {
            let package = try FirmwarePackage.open(path: path)
            try package.requireIntact()
            return package
        } catch {
            console.error("error: \(error)")
            return nil
        }
    }
}
