import Foundation
import XCTest

/// `dfukit flash` with Nordic packages made by nrfutil: pre-flight signature checks from
/// `--key` or the profile's `signing-key`, and the JSON result.
final class NordicFlashCommandTests: XCTestCase {
    private let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/nordic")
    private var shippedNordicProfile: String {
        DFUKitBinary.repositoryRoot.appendingPathComponent("profiles/nordic-secure-dfu.yaml").path
    }

    private func flash(_ package: String, profile: String, extra: [String] = []) throws -> ProcessResult {
        try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:nordic-secure-dfu",
                              samples.appendingPathComponent(package).path, "--json"] + extra)
    }

    func testSignedPackageFlashesWithTheRightKey() throws {
        let key = samples.appendingPathComponent("test-signing-key-THROWAWAY.pub.pem").path
        let result = try flash("app-signed.zip", profile: shippedNordicProfile, extra: ["--key", key])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(try jsonObject(result.stdout)["status"] as? String, "verified")
    }

    func testWrongKeyOrUnsignedPackageIsRefusedBeforeAnythingIsSent() throws {
        let wrong = samples.appendingPathComponent("wrong-key-THROWAWAY.pub.pem").path
        let signed = try flash("app-signed.zip", profile: shippedNordicProfile, extra: ["--key", wrong])
        XCTAssertEqual(signed.status, 65, signed.transcript)
        XCTAssertTrue(signed.stderr.contains("signature"), signed.transcript)
        XCTAssertTrue(signed.stderr.contains("nothing was sent to the device"), signed.transcript)
        XCTAssertFalse(signed.stderr.contains("connecting"), signed.transcript)

        let unsigned = try flash("app-unsigned.zip", profile: shippedNordicProfile, extra: ["--key", wrong])
        XCTAssertEqual(unsigned.status, 65, unsigned.transcript)
        XCTAssertTrue(unsigned.stderr.contains("signature"), unsigned.transcript)
    }

    /// A profile can name the key itself (`signing-key`, relative to the profile file).
    func testProfileSigningKeyIsEnforced() throws {
        let directory = try TemporaryDirectory()
        let text = try String(contentsOfFile: shippedNordicProfile, encoding: .utf8)
        try FileManager.default.copyItem(atPath: samples.appendingPathComponent("wrong-key-THROWAWAY.pub.pem").path,
                                         toPath: directory.file("line-key.pem"))
        let profile = try directory.write("locked.yaml", text: text.replacingOccurrences(
            of: "\nparameters:", with: "\nsigning-key: line-key.pem\n\nparameters:"))
        let refused = try flash("app-signed.zip", profile: profile)
        XCTAssertEqual(refused.status, 65, refused.transcript)
        XCTAssertTrue(refused.stderr.contains("signature"), refused.transcript)

        try FileManager.default.removeItem(atPath: directory.file("line-key.pem"))
        try FileManager.default.copyItem(atPath: samples.appendingPathComponent("test-signing-key-THROWAWAY.pub.pem").path,
                                         toPath: directory.file("line-key.pem"))
        let accepted = try flash("app-signed.zip", profile: profile)
        XCTAssertEqual(accepted.status, 0, accepted.transcript)
    }
}
