import Foundation

/// The GBL files in `firmware-samples/silabs`, made by Simplicity Commander 1v25
/// (`firmware-samples/make-gbl-samples.py`), and damaged copies of them.
enum GBLSamples {
    static let directory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // DFUPackageTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("firmware-samples/silabs").path

    static func path(_ name: String) -> String { directory + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }
}
