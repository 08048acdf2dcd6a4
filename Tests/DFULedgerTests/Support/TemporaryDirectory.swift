import Foundation

/// A fresh directory under the system temporary directory, removed when released.
final class TemporaryDirectory {
    let path: String

    init(prefix: String = "dfukit-ledger-tests") throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent(prefix + "-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
}
