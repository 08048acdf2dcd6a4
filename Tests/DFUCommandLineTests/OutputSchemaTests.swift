import Foundation
import XCTest

/// `dfukit schema output NAME` and the outputs it describes (issue 21): `flash`, `batch run`,
/// `scan` and `exec` run with `--json` on simulated devices in each outcome (success, a failure
/// on the device, a refusal before the radio, an interruption, a resume), and every output is
/// checked against the published schema by python3-jsonschema (`OutputSchemaCheck`). A batch
/// stopped by signals, with cancelled devices, is checked where it is run (BatchCommandTests),
/// as is a flash interrupted during its transfer (InterruptCommandTests).
final class OutputSchemaTests: XCTestCase {
    private static let outputs = ["flash", "batch-run", "scan", "exec"]

    /// One run: a label for the validator's messages, the arguments, the exit status expected.
    private struct Run {
        var label: String
        var arguments: [String]
        var status: Int32
    }

    /// Runs each of `runs` in `directory`, checks its exit status, and returns its output.
    private func outputs(of runs: [Run], in directory: TemporaryDirectory,
                         file: StaticString = #filePath, line: UInt = #line) throws -> [(label: String, stdout: String)] {
        try runs.map { run in
            let result = try DFUKitBinary.run(run.arguments, in: directory.path)
            XCTAssertEqual(result.status, run.status, "\(run.label): \(result.transcript)", file: file, line: line)
            XCTAssertEqual(result.stdoutLines.count, 1, "\(run.label): one JSON object on one line:\n\(result.transcript)",
                           file: file, line: line)
            return (run.label, result.stdout)
        }
    }

    private func object(_ outputs: [(label: String, stdout: String)], _ label: String) throws -> [String: Any] {
        try jsonObject(try XCTUnwrap(outputs.first { $0.label == label }).stdout)
    }

    private var samples: String { DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples").path }

    // MARK: - The schemas

    /// Each schema is draft 2020-12, and strict: every object lists all its properties as
    /// required and allows no other (but the answer of exec, the profile's own fields), and
    /// every property says what it is.
    func testEachSchemaIsPublishedAndEveryKeyRequiredAndDescribed() throws {
        for output in Self.outputs {
            let result = try DFUKitBinary.run(["schema", "output", output])
            XCTAssertEqual(result.status, 0, result.transcript)
            XCTAssertEqual(result.stderr, "")
            let schema = try jsonObject(result.stdout)
            XCTAssertEqual(schema["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
            XCTAssertEqual(schema["type"] as? String, "object", output)
            XCTAssertNotNil(schema["description"] as? String, output)
            var objects = 0
            try walk(schema, at: output) { path, node in
                guard let properties = node["properties"] as? [String: Any] else {
                    if node["type"] as? String == "object" || (node["type"] as? [String])?.contains("object") == true {
                        // Only an answer's fields (and a value inside them) are open.
                        XCTAssertTrue(path.hasPrefix("exec.properties.answer") || path.hasPrefix("exec.$defs.value"),
                                      "\(path): an object without its properties")
                    }
                    return
                }
                objects += 1
                XCTAssertEqual(Set(node["required"] as? [String] ?? []), Set(properties.keys), "\(path): every key is required")
                XCTAssertEqual(node["additionalProperties"] as? Bool, false, "\(path): no other key is allowed")
                for (name, property) in properties {
                    let described = (property as? [String: Any])?["description"] as? String ?? ""
                    XCTAssertFalse(described.isEmpty, "\(path).\(name) has no description")
                }
            }
            XCTAssertGreaterThanOrEqual(objects, 2, output)
        }
        let flash = try jsonObject(try DFUKitBinary.run(["schema", "output", "flash"]).stdout)
        let properties = try XCTUnwrap(flash["properties"] as? [String: Any])
        let status = try XCTUnwrap(properties["status"] as? [String: Any])
        XCTAssertEqual(status["enum"] as? [String], ["verified", "completed", "failed"])
        let holds = try XCTUnwrap(properties["device_holds"] as? [String: Any])
        XCTAssertEqual((holds["items"] as? [String: Any])?["enum"] as? [String],
                       ["unchanged", "overwritten", "received", "pending", "unconfirmed", "installed"])
        let evidence = try XCTUnwrap(properties["evidence"] as? [String: Any])
        XCTAssertEqual(evidence["type"] as? [String], ["string", "null"])
        let definitions = try XCTUnwrap(flash["$defs"] as? [String: Any])
        let error = try XCTUnwrap((definitions["error"] as? [String: Any])?["properties"] as? [String: Any])
        XCTAssertEqual(Set((error["kind"] as? [String: Any])?["enum"] as? [String] ?? []),
                       ["usage", "profile", "package", "transport", "device", "timeout", "disconnected", "incompatible-device",
                        "cancelled", "ledger"])
    }

    private func walk(_ node: Any, at path: String, _ visit: (String, [String: Any]) throws -> Void) throws {
        if let object = node as? [String: Any] {
            try visit(path, object)
            for (key, value) in object { try walk(value, at: path + "." + key, visit) }
        } else if let array = node as? [Any] {
            for (index, value) in array.enumerated() { try walk(value, at: path + "[\(index)]", visit) }
        }
    }

    func testSchemaOutputNamesOneOutput() throws {
        let missing = try DFUKitBinary.run(["schema", "output"])
        XCTAssertEqual(missing.status, 64, missing.transcript)
        XCTAssertEqual(missing.stderrLines.first, "error: name one output: flash, batch-run, scan, exec")
        let misspelt = try DFUKitBinary.run(["schema", "output", "flsh"])
        XCTAssertEqual(misspelt.status, 64, misspelt.transcript)
        XCTAssertEqual(misspelt.stderrLines.first,
                       "error: no schema for 'flsh'; the outputs are flash, batch-run, scan, exec; did you mean 'flash'?")
        let help = try DFUKitBinary.run(["schema", "output", "--help"])
        XCTAssertEqual(help.stdoutLines.first, "usage: dfukit schema output flash|batch-run|scan|exec", help.transcript)
        let man = try DFUKitBinary.run(["man"])
        XCTAssertTrue(man.stdout.contains(".SS \"dfukit schema output\""), "the man page has the command")
        let bash = try DFUKitBinary.run(["completion", "bash"])
        XCTAssertTrue(bash.stdout.contains("schema"), "bash completion offers the command")
    }

    // MARK: - Every outcome follows its schema

    func testFlashOutputsFollowTheSchemaInEveryOutcome() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 30_000)
        let state = directory.file("vendor.json")
        let flash = { (label: String, device: String, extra: [String], status: Int32) in
            Run(label: label, arguments: ["flash", "--profile", "vendor-ctrlpt", "--device", device, package, "--json"] + extra,
                status: status)
        }
        let mcuboot = samples + "/mcuboot/app-ecdsa-p256.bin"
        let outputs = try outputs(of: [
            flash("verified", "sim:vendor-ctrlpt", [], 0),
            flash("resumed", "sim:vendor-ctrlpt?fault=disconnect-after:12000", [], 0),
            flash("first-of-two", "sim:vendor-ctrlpt?state=\(state)", [], 0),
            flash("already-held", "sim:vendor-ctrlpt?state=\(state)", [], 0),
            flash("no-answer", "sim:vendor-ctrlpt?fault=unresponsive-after:4000", [], 1),
            flash("bad-parameter", "sim:vendor-ctrlpt", ["--set", "bogus=1"], 64),
            flash("time-bound", "sim:vendor-ctrlpt/C0:FF:EE:00:00:09", ["--timeout", "5s"], 1),
            flash("no-transport", "hci:tcp:127.0.0.1:9", [], 69),
            Run(label: "no-profile", arguments: ["flash", "--profile", "no-such-profile", "--device", "sim:vendor-ctrlpt",
                                                 package, "--json"], status: 65),
            Run(label: "no-package", arguments: ["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt",
                                                 directory.file("missing.zip"), "--json"], status: 65),
            Run(label: "wrong-kind", arguments: ["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt",
                                                 mcuboot, "--json"], status: 65),
            Run(label: "mcuboot-upload-only", arguments: ["flash", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp",
                                                          "--mode", "upload-only", mcuboot, "--json"], status: 0),
            Run(label: "nordic", arguments: ["flash", "--profile", "nordic-secure-dfu", "--device", "sim:nordic-secure-dfu",
                                             samples + "/nordic/sd-bl-app-signed.zip", "--json"], status: 0),
        ], in: directory)
        let interrupted = try SignalledProcess.run(["flash", "-p", "vendor-ctrlpt", "-d", "sim:vendor-ctrlpt?realtime=1",
                                                    package, "--json"], when: "scanning sim:")
        XCTAssertEqual(interrupted.result.status, 130, interrupted.result.transcript)
        OutputSchemaCheck.assertValid(outputs + [("interrupted", interrupted.result.stdout)], against: "flash")

        // The outcomes are the ones named.
        XCTAssertEqual(try object(outputs, "verified")["error"] as? NSNull, NSNull())
        XCTAssertGreaterThan(try object(outputs, "resumed")["resumes"] as? Int ?? 0, 0)
        XCTAssertNotNil(try object(outputs, "already-held")["not_sent"] as? String)
        let noAnswer = try XCTUnwrap(try object(outputs, "no-answer")["error"] as? [String: Any])
        XCTAssertEqual(noAnswer["kind"] as? String, "timeout")
        XCTAssertNotNil(noAnswer["offset"] as? Int)
        let refused = try object(outputs, "bad-parameter")
        XCTAssertEqual((refused["error"] as? [String: Any])?["kind"] as? String, "usage")
        XCTAssertEqual(refused["device_holds"] as? NSNull, NSNull(), "nothing is known of a device never reached")
        XCTAssertEqual(try object(outputs, "mcuboot-upload-only")["device_holds"] as? [String], ["received"])
        let stopped = try jsonObject(interrupted.result.stdout)
        XCTAssertEqual((stopped["error"] as? [String: Any])?["kind"] as? String, "cancelled", interrupted.result.transcript)
    }

    func testBatchRunSummariesFollowTheSchemaInEveryOutcome() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000)
        let lineFile = try directory.write("line.yaml", text: "profile: vendor-ctrlpt\nbogus: 1\n")
        let batch = { (label: String, ledger: String, fleet: String, extra: [String], status: Int32) in
            Run(label: label, arguments: ["batch", "run", "--profile", "vendor-ctrlpt", "--package", package,
                                          "--device", "sim:vendor-ctrlpt?\(fleet)", "--ledger", ledger, "--station", "line-1",
                                          "--json"] + extra, status: status)
        }
        let ledger = "sqlite:" + directory.file("line.sqlite")
        let outputs = try outputs(of: [
            batch("done", ledger, "fleet=3", ["--concurrency", "2"], 0),
            batch("skipped", ledger, "fleet=3", [], 0),
            batch("failing", "sqlite:" + directory.file("failing.sqlite"), "fleet=4&fault-rate=0.5&seed=1", ["--retries", "0"], 1),
            batch("count", "sqlite:" + directory.file("count.sqlite"), "fleet=5", ["--count", "2"], 0),
            batch("bad-parameter", ledger, "fleet=3", ["--set", "bogus=1"], 64),
            batch("no-ledger", "sqlite:" + directory.file("no/such/dir/line.sqlite"), "fleet=3", [], 74),
            Run(label: "no-package", arguments: ["batch", "run", "--profile", "vendor-ctrlpt", "--package", directory.file("x.zip"),
                                                 "--device", "sim:vendor-ctrlpt", "--json"], status: 65),
            Run(label: "no-profile", arguments: ["batch", "run", "--profile", "no-such-profile", "--package", package,
                                                 "--device", "sim:vendor-ctrlpt", "--json"], status: 65),
            Run(label: "line-file", arguments: ["batch", "run", lineFile, "--package", package, "--device", "sim:vendor-ctrlpt",
                                                "--json"], status: 65),
            batch("two-radios", "sqlite:" + directory.file("radios.sqlite"), "fleet=4",
                  ["--device", "sim:vendor-ctrlpt?fleet=4"], 0),
            batch("radio-twice", ledger, "fleet=4", ["--device", "bluez:hci0,hci0"], 64),
        ], in: directory)
        OutputSchemaCheck.assertValid(outputs, against: "batch-run")

        XCTAssertEqual(try object(outputs, "skipped")["skipped"] as? Int, 3)
        let failing = try object(outputs, "failing")
        XCTAssertGreaterThan(failing["failed"] as? Int ?? 0, 0, "\(failing)")
        XCTAssertEqual(failing["error"] as? NSNull, NSNull())
        let noLedger = try object(outputs, "no-ledger")
        XCTAssertEqual((noLedger["error"] as? [String: Any])?["kind"] as? String, "ledger")
        XCTAssertNotNil(noLedger["ledger_error"] as? String)
        XCTAssertEqual(try object(outputs, "line-file")["station"] as? NSNull, NSNull(), "the line file was not read")
        let radios = try XCTUnwrap(try object(outputs, "two-radios")["radios"] as? [[String: Any]])
        XCTAssertEqual(radios.map { $0["name"] as? String }, ["radio-1", "radio-2"])
        XCTAssertEqual(radios.map { $0["succeeded"] as? Int }, [2, 2])
        XCTAssertEqual(try object(outputs, "radio-twice")["radios"] as? NSNull, NSNull(), "refused before the radios")
        XCTAssertEqual(try object(outputs, "done")["radios"].map { ($0 as? [Any])?.count }, 1, "one radio")
    }

    func testScanOutputsFollowTheSchemaInEveryOutcome() throws {
        let directory = try TemporaryDirectory()
        let outputs = try outputs(of: [
            Run(label: "fleet", arguments: ["scan", "--device", "sim:vendor-ctrlpt?fleet=3", "--json"], status: 0),
            Run(label: "none-matching", arguments: ["scan", "--device", "sim:vendor-ctrlpt", "--profile", "mcumgr-smp", "--json"],
                status: 0),
            Run(label: "no-transport", arguments: ["scan", "--device", "hci:tcp:127.0.0.1:9", "--json"], status: 69),
            Run(label: "no-profile", arguments: ["scan", "--device", "sim:vendor-ctrlpt", "--profile", "no-such-profile",
                                                 "--json"], status: 65),
        ], in: directory)
        let interrupted = try SignalledProcess.run(["scan", "--device", "sim:vendor-ctrlpt?realtime=1", "--seconds", "30", "--json"],
                                                   when: nil, markerTimeout: 1.5)
        XCTAssertEqual(interrupted.result.status, 130, interrupted.result.transcript)
        OutputSchemaCheck.assertValid(outputs + [("interrupted", interrupted.result.stdout)], against: "scan")

        XCTAssertEqual((try object(outputs, "fleet")["devices"] as? [Any])?.count, 3)
        XCTAssertEqual((try object(outputs, "none-matching")["devices"] as? [Any])?.count, 0)
        XCTAssertEqual(try object(outputs, "no-transport")["devices"] as? NSNull, NSNull())
        XCTAssertEqual((try jsonObject(interrupted.result.stdout)["error"] as? [String: Any])?["kind"] as? String, "cancelled")
    }

    func testExecOutputsFollowTheSchemaInEveryOutcome() throws {
        let directory = try TemporaryDirectory()
        let exec = { (label: String, profile: String, device: String, command: [String], status: Int32) in
            Run(label: label, arguments: ["exec", "--profile", profile, "--device", device] + command + ["--json"], status: status)
        }
        let outputs = try outputs(of: [
            exec("answer", "vendor-ctrlpt", "sim:vendor-ctrlpt", ["status"], 0),
            exec("nested-answer", "mcumgr-smp", "sim:mcumgr-smp", ["image_list"], 0),
            exec("no-response-fields", "telink-ota", "sim:telink-ota", ["ota_version", "--yes"], 0),
            exec("no-answer", "vendor-ctrlpt", "sim:vendor-ctrlpt?fault=unresponsive-after:1", ["status"], 1),
            exec("unknown-command", "vendor-ctrlpt", "sim:vendor-ctrlpt", ["bogus"], 64),
            exec("changes-device", "mcumgr-smp", "sim:mcumgr-smp", ["image_erase"], 64),
            exec("bad-parameter", "vendor-ctrlpt", "sim:vendor-ctrlpt", ["status", "--set", "bogus=1"], 64),
            exec("no-transport", "vendor-ctrlpt", "hci:tcp:127.0.0.1:9/C0:FF:EE:00:00:01", ["status"], 69),
            exec("no-profile", "no-such-profile", "sim:vendor-ctrlpt", ["status"], 65),
        ], in: directory)
        let interrupted = try SignalledProcess.run(["exec", "-p", "vendor-ctrlpt", "-d", "sim:vendor-ctrlpt?realtime=1/C0:FF:EE:00:00:09",
                                                    "info", "--json"], when: nil, markerTimeout: 1.5)
        XCTAssertEqual(interrupted.result.status, 130, interrupted.result.transcript)
        OutputSchemaCheck.assertValid(outputs + [("interrupted", interrupted.result.stdout)], against: "exec")

        let answer = try object(outputs, "answer")
        XCTAssertEqual(answer["status"] as? String, "answered")
        XCTAssertEqual((answer["answer"] as? [String: Any])?["status"] as? Int, 0)
        XCTAssertEqual((try object(outputs, "no-response-fields")["answer"] as? [String: Any])?.count, 0)
        let noAnswer = try object(outputs, "no-answer")
        XCTAssertEqual(noAnswer["status"] as? String, "failed")
        XCTAssertEqual(noAnswer["answer"] as? NSNull, NSNull())
        XCTAssertEqual((noAnswer["error"] as? [String: Any])?["kind"] as? String, "timeout")
        // The shortcuts still print the answer alone.
        let shortcut = try DFUKitBinary.run(["smp", "image", "list", "--device", "sim:mcumgr-smp", "--json"])
        XCTAssertNotNil(try jsonObject(shortcut.stdout)["body"], shortcut.transcript)
    }

    // MARK: - The check can fail

    /// The same validation rejects an output that lacks a key, has a wrong type, an unknown
    /// stage or an extra key, and says where and why; the untouched output passes in the same run.
    func testTheCheckRejectsAMissingKeyAWrongTypeAndAnExtraKey() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let run = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt", package, "--json"])
        XCTAssertEqual(run.status, 0, run.transcript)
        let report = try jsonObject(run.stdout)
        func variant(_ change: (inout [String: Any]) -> Void) throws -> String {
            var copy = report
            change(&copy)
            return String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self)
        }
        let verdict = try OutputSchemaCheck.check([
            ("valid", run.stdout),
            ("no-error-key", try variant { $0["error"] = nil }),
            ("bytes-as-text", try variant { $0["bytes"] = "4000" }),
            ("unknown-stage", try variant { $0["device_holds"] = ["flashed"] }),
            ("extra-key", try variant { $0["speed"] = 1 }),
            ("error-without-location", try variant {
                $0["error"] = ["kind": "device", "message": "refused", "device": NSNull(), "offset": 0]
            }),
            ("unknown-error-kind", try variant {
                $0["error"] = ["kind": "oops", "message": "x", "device": NSNull(), "offset": NSNull(), "location": NSNull()]
            }),
        ], against: "flash")
        XCTAssertFalse(verdict.valid, verdict.transcript)
        XCTAssertEqual(verdict.lines, [
            "no-error-key.json: $: 'error' is a required property",
            "bytes-as-text.json: $.bytes: '4000' is not of type 'integer'",
            "unknown-stage.json: $.device_holds[0]: 'flashed' is not one of "
                + "['unchanged', 'overwritten', 'received', 'pending', 'unconfirmed', 'installed']",
            "extra-key.json: $: Additional properties are not allowed ('speed' was unexpected)",
            "error-without-location.json: $.error: 'location' is a required property",
            "unknown-error-kind.json: $.error.kind: 'oops' is not one of \(errorKinds)",
            "7 checked, 6 invalid",
        ], verdict.transcript)

        // scan's former output, a bare list, is not what the schema describes.
        let list = try OutputSchemaCheck.check([("list", "[]")], against: "scan")
        XCTAssertFalse(list.valid, list.transcript)
        XCTAssertEqual(list.lines.first, "list.json: $: [] is not of type 'object'", list.transcript)
    }

    private var errorKinds: String {
        "['usage', 'profile', 'package', 'transport', 'device', 'cancelled', 'timeout', 'disconnected', "
            + "'incompatible-device', 'ledger']"
    }

    /// Without python3-jsonschema the check fails and says what to install; it never passes
    /// quietly. (`python3 -S` leaves out the site packages, where Debian installs it.)
    func testAMissingValidatorFailsTheCheck() throws {
        let verdict = try OutputSchemaCheck.check([("valid", "{}")], against: "scan", interpreterOptions: ["-S"])
        XCTAssertFalse(verdict.valid, verdict.transcript)
        XCTAssertTrue(verdict.transcript.contains("python3-jsonschema is not installed"), verdict.transcript)
    }
}
