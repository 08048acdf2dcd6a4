import DFUKit
import Foundation
import XCTest

/// One recorded flash of every shipped profile (Fixtures/Recordings, made by
/// scripts/record-fixtures.sh with `dfukit flash --record` against the Bumble peers over
/// hci:tcp, and MCUboot recovery against `dfukit sim serve` on a pty), replayed: DFUKit must
/// send the same bytes in the same writes and end as the recorded flash ended. A change to the
/// engine that alters the bytes on the wire fails here, naming the connection, step, message
/// and field. Bumble's own btsnoop of two of the sessions (a file written by a tool we did not
/// write) is read, decoded and replayed too.
final class RecordedSessionReplayTests: XCTestCase {
    struct Fixture {
        var name: String
        var profile: String
        var package: String
        var settings: [String: String]
        var status: String
        var recording: String { RecordedSessionReplayTests.directory + "/\(name).dfurec.gz" }
    }

    static let directory = Fixtures.repositoryRoot.appendingPathComponent("Tests/DFUKitTests/Fixtures/Recordings").path

    static func fixtures() throws -> [Fixture] {
        let manifest = try String(contentsOfFile: directory + "/manifest.tsv", encoding: .utf8)
        return manifest.split(separator: "\n").dropFirst().map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var settings: [String: String] = [:]
            let words = columns[3].split(separator: " ").map(String.init)
            for (index, word) in words.enumerated() where word == "--set" && index + 1 < words.count {
                let pair = words[index + 1].split(separator: "=", maxSplits: 1).map(String.init)
                settings[pair[0]] = pair[1]
            }
            return Fixture(name: columns[0], profile: columns[1], package: columns[2], settings: settings, status: columns[4])
        }
    }

    private func profile(_ name: String) throws -> Profile {
        try ProfileLoader.load(path: Fixtures.repositoryRoot.appendingPathComponent("profiles/\(name).yaml").path)
    }

    private func request(_ fixture: Fixture, device: String) throws -> FlashRequest {
        let package = try FirmwarePackage.open(path: Fixtures.repositoryRoot.appendingPathComponent(fixture.package).path)
        var request = FlashRequest(package: package, profile: try profile(fixture.profile), device: device)
        request.options = FlashOptions(parameters: fixture.settings.mapValues { ParameterValue.text($0) })
        return request
    }

    func testEveryShippedProfileHasARecordingThatEndedVerified() throws {
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Fixtures.repositoryRoot.appendingPathComponent("profiles").path)
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
        let fixtures = try Self.fixtures()
        XCTAssertEqual(fixtures.map(\.profile).sorted(), shipped)
        for fixture in fixtures {
            XCTAssertEqual(fixture.status, "verified", "\(fixture.name) was recorded from a flash that ended \(fixture.status)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.recording), fixture.recording)
        }
    }

    func testEveryRecordingReplaysToTheSameEndWithTheSameBytes() async throws {
        for fixture in try Self.fixtures() {
            let flash = try request(fixture, device: "sim:replay?capture=\(fixture.recording)")
            var report: FlashReport?
            do {
                for try await update in DFUKit.flash(flash) {
                    if case let .finished(finished) = update { report = finished }
                }
            } catch {
                XCTFail("\(fixture.name): the replay of the recorded flash failed: \(error)")
                continue
            }
            XCTAssertEqual(report?.status.rawValue, fixture.status, fixture.name)
        }
    }

    func testEveryRecordingVerifiesAgainstItsProfileWithNothingLeftOver() async throws {
        for fixture in try Self.fixtures() {
            let base = try request(fixture, device: "sim:vendor-ctrlpt")
            var verify = ProfileVerificationRequest(profile: base.profile, package: base.package, capture: fixture.recording)
            verify.options = base.options
            let verification = try await DFUKit.verify(verify)
            XCTAssertTrue(verification.reproduced, "\(fixture.name): \(verification.divergence.map { "\($0)" } ?? "")"
                          + "\(verification.unfinished ?? "") \(verification.flashError ?? "")")
            XCTAssertTrue(verification.sameImage, "\(fixture.name): \(verification.imageEvidence)")
            XCTAssertEqual(verification.tolerated.count, 0, "\(fixture.name): the same engine sends the same bytes")
        }
    }

    /// A profile with one wrong field value (the vendor start opcode 0x09 for 0x01) fails, and
    /// the failure names the message and the field with both values.
    func testAProfileWithOneWrongFieldFailsNamingTheMessageAndField() async throws {
        let fixture = try XCTUnwrap(try Self.fixtures().first { $0.profile == "vendor-ctrlpt" })
        let text = try String(contentsOfFile: Fixtures.repositoryRoot.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path,
                              encoding: .utf8)
        let wrongText = text.replacingOccurrences(of: "      - { type: u8, value: 0x01 }\n      - { name: size",
                                                  with: "      - { type: u8, value: 0x09 }\n      - { name: size")
        XCTAssertNotEqual(wrongText, text)
        let wrong = try ProfileLoader.load(text: wrongText, path: "wrong-vendor.yaml")
        let base = try request(fixture, device: "sim:vendor-ctrlpt")
        let verification = try await DFUKit.verify(ProfileVerificationRequest(profile: wrong, package: base.package,
                                                                              capture: fixture.recording))
        XCTAssertFalse(verification.reproduced)
        let field = try XCTUnwrap(verification.divergence?.fields.first)
        XCTAssertEqual(field.message, "start")
        XCTAssertEqual(field.field, "field 1")
        XCTAssertEqual(field.captured, "1")
        XCTAssertEqual(field.now, "9")
    }

    /// Bumble's BtSnooper wrote these at the peripheral's HCI while DFUKit flashed it.
    func testBumblesBtsnoopIsDecodedByTheProfileAndReplaysVerified() async throws {
        for name in ["vendor-ctrlpt", "mcumgr-smp"] {
            let fixture = try XCTUnwrap(try Self.fixtures().first { $0.name == name })
            let capture = Self.directory + "/\(name).bumble.btsnoop.gz"
            let inspection = try DFUKit.inspectCapture(capture, profile: try profile(fixture.profile))
            XCTAssertEqual(inspection.format, .btsnoop(datalink: 1002))
            XCTAssertGreaterThan(inspection.messages, 10, name)
            XCTAssertEqual(inspection.decoded, inspection.messages, name)
            XCTAssertNil(inspection.firstUnexplained, "\(name): \(inspection.firstUnexplained?.reason ?? "")")
            XCTAssertEqual(inspection.connections.first?.naming, .discovery)

            var report: FlashReport?
            for try await update in DFUKit.flash(try request(fixture, device: "sim:replay?capture=\(capture)")) {
                if case let .finished(finished) = update { report = finished }
            }
            XCTAssertEqual(report?.status, .verified, name)
        }
    }
}
