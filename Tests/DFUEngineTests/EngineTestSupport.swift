import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import Foundation

enum EngineTestSupport {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func vendorProfile() throws -> Profile {
        try ProfileLoader.load(path: repositoryRoot.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path)
    }

    /// Deterministic pseudo-random bytes (a 64-bit LCG), so failures reproduce.
    static func image(size: Int, seed: UInt64 = 1) -> FlashImage {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return FlashImage(name: "application", version: "1.0.0", data: bytes)
    }

    static func vendorWorld(_ query: String = "") throws -> (SimulatedWorld, VendorControlPointDevice) {
        let configuration = try SimulatorConfiguration(parsing: "vendor-ctrlpt" + (query.isEmpty ? "" : "?" + query))
        let world = try SimulatedDeviceCatalog.makeWorld(configuration)
        guard let device = world.peripherals.first as? VendorControlPointDevice else {
            fatalError("the vendor world holds a vendor device")
        }
        return (world, device)
    }

    static func flash(_ image: FlashImage, query: String = "", profile: Profile? = nil,
                      events: @escaping (FlashEvent) -> Void = { _ in }) async throws -> (FlashReport, VendorControlPointDevice) {
        let (world, device) = try vendorWorld(query)
        let session = FlashSession(profile: try profile ?? vendorProfile(), images: [image], transport: world,
                                   address: nil, onEvent: events)
        return (await session.run(), device)
    }
}
