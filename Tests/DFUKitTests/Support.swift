import DFUKit
import Foundation
import XCTest

/// A directory removed when the value goes.
final class ScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("dfukit-api-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A vendor-ctrlpt package of `size` pseudo-random bytes, written in `directory`.
    static func vendorPackage(in directory: ScratchDirectory, size: Int = 24 * 1024, name: String = "app.zip") throws -> String {
        var generator = SystemRandomNumberGenerator()
        let data = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = directory.file(name)
        _ = try PackageBuilder.create(images: [PackageBuilder.Image(name: "application", data: data, version: "1.2.3")],
                                      profile: "vendor-ctrlpt", outputPath: path)
        return path
    }

    static func profile(_ name: String) throws -> Profile {
        try ProfileLibrary.standard().load(name)
    }
}

/// Every event of `events`, and how the sequence ended.
func collect<Element: Sendable>(_ events: DFUKitEvents<Element>) async -> (events: [Element], error: DFUKitError?) {
    var seen: [Element] = []
    do throws(DFUKitError) {
        for try await event in events { seen.append(event) }
        return (seen, nil)
    } catch {
        return (seen, error)
    }
}
