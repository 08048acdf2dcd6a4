import Foundation

/// A fresh directory under the system temporary directory, removed when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("dfupackage-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let filePath = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: filePath))
        return filePath
    }

    @discardableResult
    func write(_ name: String, text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }
}
