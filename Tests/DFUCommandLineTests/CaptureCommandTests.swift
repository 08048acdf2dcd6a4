import DFUKit
import Foundation
import XCTest

/// `dfukit capture inspect`, `dfukit profile verify --against` and `sim:replay?capture=` as a
/// profile author meets them: the built binary, its exit codes and its words.
final class CaptureCommandTests: XCTestCase {
    private let profile = DFUKitBinary.shippedProfile
    private static let recordings = DFUKitBinary.repositoryRoot.path + "/Tests/DFUKitTests/Fixtures/Recordings"

    /// A recorded vendor flash and its package, in `directory`.
    private func recorded(in directory: TemporaryDirectory) throws -> String {
        let package = try PackageCommandTests.makePackage(in: directory, size: 12 * 1024)
        let result = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:vendor-ctrlpt", package,
                                           "--record", "session.dfurec.gz"], in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        return package
    }

    func testInspectReadsBumblesBtsnoopByTheProfile() throws {
        let result = try DFUKitBinary.run(["capture", "inspect", Self.recordings + "/vendor-ctrlpt.bumble.btsnoop.gz",
                                           "--profile", profile])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertTrue(result.stdout.contains("btsnoop (HCI UART), 2 connection(s), read by profile 'vendor-ctrlpt'"), result.stdout)
        XCTAssertTrue(result.stdout.contains("characteristics by the capture's discovery: 0x0010 control"), result.stdout)
        XCTAssertTrue(result.stdout.contains("=> start request"), result.stdout)
        XCTAssertTrue(result.stdout.contains("<= start response"), result.stdout)
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("the profile explains all "), last)
    }

    func testInspectJSONCountsEqualTheEvents() throws {
        let result = try DFUKitBinary.run(["capture", "inspect", Self.recordings + "/vendor-ctrlpt.dfurec.gz",
                                           "--profile", profile, "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let objects = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(objects.first?["event"] as? String, "capture")
        XCTAssertEqual(objects.first?["format"] as? String, "DFUKit recording v1")
        let end = try XCTUnwrap(objects.last)
        XCTAssertEqual(end["event"] as? String, "end")
        let messages = objects.filter { $0["event"] as? String == "message" }
        XCTAssertEqual(end["messages"] as? Int, messages.count)
        XCTAssertEqual(end["decoded"] as? Int, messages.count)
        XCTAssertNil(end["first_unexplained"])
        XCTAssertEqual(objects.filter { $0["event"] as? String == "connection" }.count, 2)
    }

    func testInspectMarksWhatAnotherProfileCannotExplain() throws {
        // The SMP session read by the vendor profile: nothing is named, nothing is read.
        let result = try DFUKitBinary.run(["capture", "inspect", Self.recordings + "/mcumgr-smp.dfurec.gz", "--profile", profile])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertTrue(result.stdout.hasSuffix("no message of the profile found: no characteristic of the capture could be named by it\n"),
                      result.stdout.suffix(300).description)
    }

    func testInspectRefusesAFileThatIsNoCapture() throws {
        let directory = try TemporaryDirectory()
        try Data("hello".utf8).write(to: URL(fileURLWithPath: directory.file("notes.txt")))
        let result = try DFUKitBinary.run(["capture", "inspect", "notes.txt"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.hasPrefix("error: capture notes.txt at byte 0: the first bytes (68 65 6C 6C 6F) are no "
                                              + "capture format DFUKit reads"), result.stderr)
    }

    func testVerifyPassesOnTheRecordedSessionAndNamesAWrongField() throws {
        let directory = try TemporaryDirectory()
        let package = try recorded(in: directory)
        let pass = try DFUKitBinary.run(["profile", "verify", profile, "--against", "session.dfurec.gz", "--package", package],
                                        in: directory.path)
        XCTAssertEqual(pass.status, 0, pass.transcript)
        XCTAssertTrue(pass.stdout.contains("reproduced: every message the profile sends matches the captured client's; "
                                           + "the flash ended verified"), pass.stdout)

        let text = try String(contentsOfFile: DFUKitBinary.repositoryRoot.path + "/profiles/vendor-ctrlpt.yaml", encoding: .utf8)
        try text.replacingOccurrences(of: "      - { type: u8, value: 0x01 }\n      - { name: size",
                                      with: "      - { type: u8, value: 0x09 }\n      - { name: size")
            .write(toFile: directory.file("wrong.yaml"), atomically: true, encoding: .utf8)
        let fail = try DFUKitBinary.run(["profile", "verify", "wrong.yaml", "--against", "session.dfurec.gz", "--package", package,
                                         "--json"], in: directory.path)
        XCTAssertEqual(fail.status, 1, fail.transcript)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(fail.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["reproduced"] as? Bool, false)
        let divergence = try XCTUnwrap(object["divergence"] as? [String: Any])
        let field = try XCTUnwrap((divergence["fields"] as? [[String: Any]])?.first)
        XCTAssertEqual(field["message"] as? String, "start")
        XCTAssertEqual(field["field"] as? String, "field 1")
        XCTAssertEqual(field["captured"] as? String, "1")
        XCTAssertEqual(field["now"] as? String, "9")
        XCTAssertEqual(field["variance"] as? String, "fixed")
    }

    func testReplayOfAnotherImageStopsAtTheFirstDifferenceAndNeverHangs() throws {
        let directory = try TemporaryDirectory()
        _ = try recorded(in: directory)
        let other = try PackageCommandTests.makePackage(in: directory, size: 10 * 1024, name: "other.zip")
        let result = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:replay?capture=session.dfurec.gz", other],
                                          in: directory.path)
        XCTAssertEqual(result.status, 1, result.transcript)
        XCTAssertTrue(result.stderr.contains("the captured device never saw this request: the replay stopped at connection 1, step "),
                      result.stderr)
        XCTAssertTrue(result.stderr.contains("message 'start' field 'size': the capture has 12288 (0x3000), DFUKit sends 10240 (0x2800)"),
                      result.stderr)
    }

    func testReplayTargetsAreCheckedBeforeAnythingRuns() throws {
        let missing = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:replay", "app.zip"])
        XCTAssertEqual(missing.status, 64, missing.transcript)
        XCTAssertTrue(missing.stderr.contains("name the capture to replay: sim:replay?capture=FILE"), missing.stderr)
        let unknown = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:replay?capture=x&speed=2", "app.zip"])
        XCTAssertEqual(unknown.status, 64, unknown.transcript)
        XCTAssertTrue(unknown.stderr.contains("sim:replay takes capture=FILE only, not 'speed=2'"), unknown.stderr)
        let absent = try DFUKitBinary.run(["flash", "--profile", profile, "--device", "sim:replay?capture=/nonexistent.dfurec", "app.zip"])
        XCTAssertEqual(absent.status, 64, absent.transcript)
        XCTAssertTrue(absent.stderr.contains("/nonexistent.dfurec"), absent.stderr)
    }
}
