import Foundation
import XCTest

/// `dfukit profile schema`, `dfukit profiles` and the help of the authoring commands.
final class AuthoringCommandTests: XCTestCase {
    func testTheHelpOfEachAuthoringCommand() throws {
        let expected: [(command: [String], usage: String, options: [String])] = [
            (["profile", "trace"], "usage: dfukit profile trace PROFILE PACKAGE [--device DEVICE] [--mtu N] "
                + "[--set NAME=VALUE]... [--answer COMMAND.FIELD=EXPR]... [--json]",
             ["--device, -d DEVICE", "--mtu N", "--set NAME=VALUE", "--answer COMMAND.FIELD=EXPR", "--json", "-h, --help"]),
            (["profile", "schema"], "usage: dfukit profile schema", []),
            (["profiles"], "usage: dfukit profiles [--json | --names]", ["--json", "--names", "-h, --help"]),
        ]
        for (command, usage, options) in expected {
            let result = try DFUKitBinary.run(command + ["--help"])
            XCTAssertEqual(result.status, 0, result.transcript)
            XCTAssertEqual(result.stderr, "")
            XCTAssertEqual(result.stdoutLines.first, usage, result.transcript)
            for option in options {
                XCTAssertTrue(result.stdoutLines.contains { $0.hasPrefix("  " + option + " ") },
                              "\(command) --help lacks '\(option)':\n\(result.stdout)")
            }
        }
        let overview = try DFUKitBinary.run(["--help"])
        for command in ["profile trace", "profile schema", "profiles"] {
            XCTAssertTrue(overview.stdout.contains("\n  \(command) "), "'\(command)' missing from:\n\(overview.stdout)")
        }
    }

    func testTheSchemaIsJSONSchemaDraft202012() throws {
        let result = try DFUKitBinary.run(["profile", "schema"])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stderr, "")
        let schema = try jsonObject(result.stdout)
        XCTAssertEqual(schema["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
        XCTAssertEqual(schema["$ref"] as? String, "#/$defs/top")
        let definitions = try XCTUnwrap(schema["$defs"] as? [String: Any])
        for name in ["top", "framing", "characteristic", "command", "field", "step", "step-send", "step-phase", "chunks"] {
            XCTAssertNotNil(definitions[name], "no definition '\(name)'")
        }
        let top = try XCTUnwrap(definitions["top"] as? [String: Any])
        XCTAssertEqual(top["required"] as? [String], ["profile", "characteristics", "commands", "procedure"])
        XCTAssertEqual(top["additionalProperties"] as? Bool, false)

        let extra = try DFUKitBinary.run(["profile", "schema", "out.json"])
        XCTAssertEqual(extra.status, 64, extra.transcript)
    }

    /// `./profiles` of the current directory comes before the source tree: its vendor-ctrlpt
    /// hides the shipped one, and a broken file is listed with its first error.
    func testProfilesListsEachFileWhereItWasFound() throws {
        let directory = try TemporaryDirectory()
        let shipped = try String(contentsOfFile: DFUKitBinary.shippedProfile, encoding: .utf8)
        let shippedCount = try FileManager.default.contentsOfDirectory(
            atPath: DFUKitBinary.repositoryRoot.appendingPathComponent("profiles").path).filter { $0.hasSuffix(".yaml") }.count
        try FileManager.default.createDirectory(atPath: directory.file("profiles"), withIntermediateDirectories: true)
        try directory.write("profiles/vendor-ctrlpt.yaml", text: shipped.replacingOccurrences(
            of: "description: Vendor control point", with: "description: Local copy of the vendor control point"))
        try directory.write("profiles/broken.yaml", text: "profile: broken\nbogus: 1\n")

        let result = try DFUKitBinary.run(["profiles"], in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        let lines = result.stdoutLines
        XCTAssertEqual(lines.first, "search path (the first profile of each name is the one --profile NAME loads):")
        XCTAssertTrue(lines.contains { $0.hasSuffix("/profiles (./profiles): 2 profiles") }, result.stdout)
        XCTAssertTrue(lines.contains { $0.hasSuffix("/profiles (source tree): \(shippedCount) profiles") }, result.stdout)
        XCTAssertTrue(lines.contains("vendor-ctrlpt      Local copy of the vendor control point, u16 LE length-prefixed "
                                     + "commands, write with response [packages: dfukit-package]"), result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("vendor-ctrlpt      hidden by an earlier vendor-ctrlpt; Vendor control point") },
                      result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("broken             invalid: ") && $0.contains("/profiles/broken.yaml:1:1: error: ") },
                      result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("mcumgr-smp         MCUmgr SMP image upload") }, result.stdout)

        let json = try DFUKitBinary.run(["profiles", "--json"], in: directory.path)
        XCTAssertEqual(json.status, 0, json.transcript)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, shippedCount + 2)
        let vendors = rows.filter { $0["name"] as? String == "vendor-ctrlpt" }
        XCTAssertEqual(vendors.map { $0["origin"] as? String }, ["./profiles", "source tree"])
        XCTAssertEqual(vendors.map { $0["hidden"] as? Bool }, [false, true])
        let broken = try XCTUnwrap(rows.first { $0["name"] as? String == "broken" })
        XCTAssertEqual(broken["valid"] as? Bool, false)
        XCTAssertTrue((broken["error"] as? String)?.contains("missing required key 'characteristics'") ?? false, "\(broken)")
        XCTAssertEqual(rows.first { $0["name"] as? String == "nordic-secure-dfu" }?["valid"] as? Bool, true)
        XCTAssertEqual(rows.first { $0["name"] as? String == "mcumgr-smp" }?["packages"] as? [String], ["mcuboot", "nrf-connect-dfu"])

        // --names: what --profile NAME loads, once each (shell completion reads it).
        let names = try DFUKitBinary.run(["profiles", "--names"], in: directory.path)
        XCTAssertEqual(names.status, 0, names.transcript)
        XCTAssertEqual(names.stdoutLines.sorted(), Set(rows.compactMap { $0["name"] as? String }).sorted())
        XCTAssertEqual(names.stdoutLines.count, shippedCount + 1, "vendor-ctrlpt once")

        let extra = try DFUKitBinary.run(["profiles", "vendor-ctrlpt"], in: directory.path)
        XCTAssertEqual(extra.status, 64, extra.transcript)
        XCTAssertTrue(extra.stderr.contains("did you mean 'dfukit profile check vendor-ctrlpt'?"), extra.transcript)
    }
}
