import DFUEngine
import DFUGATT
import DFUPackage
import DFUProfile
import DFUSimulator
import Foundation
import XCTest

/// The example of Documentation/DFUKit.docc/Embedding.md, as written there (only the package's
/// path differs): it must compile and flash a simulated device to the end.
final class EmbeddingArticleTests: XCTestCase {
    func testTheArticlesExampleFlashesASimulatedDevice() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let packagePath = directory.appendingPathComponent("app.zip").path
        let firmware = EngineTestSupport.image(size: 20_000).data
        _ = try PackageBuilder.create(images: [PackageBuilder.Image(name: "application", data: firmware, version: "1.0.0")],
                                      profile: "vendor-ctrlpt", outputPath: packagePath)
        var progress: [Int] = []

        // From the article:
        let profile = try ProfileLibrary.standard().load("vendor-ctrlpt")
        let package = try FirmwarePackage.open(path: packagePath)
        let images = package.images.map {
            FlashImage(name: $0.name, version: $0.version, data: $0.data, initPacket: $0.initPacket ?? [])
        }
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "vendor-ctrlpt?mtu=247"))
        let session = FlashSession(profile: profile, images: images, transport: world, address: nil) { event in
            if case let .progress(_, done, _, _) = event { progress.append(done) }
        }
        let report = await session.run()

        XCTAssertEqual(report.status, .verified, report.error.map { "\($0)" } ?? "")
        XCTAssertEqual(report.bytes, firmware.count)
        XCTAssertEqual(progress.last, firmware.count)
    }
}
