import DFUBytes
import DFUPackage
import Foundation
import XCTest

/// The images in `firmware-samples/mcuboot`, signed by imgtool 2.5.0
/// (`firmware-samples/make-mcuboot-samples.sh`), and the throwaway keys made next to them.
enum MCUbootSamples {
    static let directory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // DFUPackageTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("firmware-samples/mcuboot").path

    static let unsigned = path("app-unsigned.bin")
    static let ecdsa = path("app-ecdsa-p256.bin")
    static let ed25519 = path("app-ed25519.bin")
    static let protectedTLVs = path("app-protected-tlvs.bin")
    static let ecdsaP384 = path("app-ecdsa-p384.bin")
    static let rsa2048 = path("app-rsa-2048.bin")
    static let rsa3072 = path("app-rsa-3072.bin")
    static let nrfConnectZip = path("dfu_application.zip")

    static func path(_ name: String) -> String { directory + "/" + name }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func key(_ name: String) throws -> String {
        try String(contentsOfFile: path(name + "-THROWAWAY.pub.pem"), encoding: .utf8)
    }

    /// The DER SubjectPublicKeyInfo of a public key PEM.
    static func keyDER(_ name: String) throws -> [UInt8] {
        try PEM.decode(try key(name)).der
    }
}
