/// DFUKit's embedding API and its versions.
///
/// Each call returns a `DFUKitEvents` sequence: iterate it in a task to run the operation, read
/// its typed events, and cancel the task to stop it (the sequence then throws a `DFUKitError`
/// of kind `.cancelled` that says what the device holds).
///
/// ```swift
/// let package = try FirmwarePackage.open(path: "app.zip")
/// let profile = try ProfileLibrary.standard().load("vendor-ctrlpt")
/// for try await event in DFUKit.flash(package, profile: profile, device: "sim:vendor-ctrlpt") {
///     print(event)
/// }
/// ```
public enum DFUKit {
    /// The version of the library and of `dfukit` (`dfukit --version`), as in CHANGELOG.md.
    /// Semantic versioning: before 1.0 a minor version may change the public API.
    public static let version = "0.1.0"

    /// The profile language version this DFUKit reads (a profile's top-level `version:` key).
    public static let profileLanguageVersion = ProfileLanguage.version
}
