// `make fault-matrix`: every shipped profile against the simulators with a fault at every phase;
// writes .build/fault-matrix/results.json and exits 1 when any case's report disagrees with what
// the device holds (silent) or an error does not say what the device holds.
//
//   dfukit-fault-matrix [--short] [--output PATH] [--profiles DIR] [--only SUBJECT]
import DFUBytes
import DFUFaultMatrix
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
var short = false
var output = ".build/fault-matrix/results.json"
var profiles = "profiles"
var only: String?
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--short": short = true
    case "--output": output = arguments.isEmpty ? output : arguments.removeFirst()
    case "--profiles": profiles = arguments.isEmpty ? profiles : arguments.removeFirst()
    case "--only": only = arguments.isEmpty ? nil : arguments.removeFirst()
    default:
        FileHandle.standardError.write(Data("usage: dfukit-fault-matrix [--short] [--output PATH] [--profiles DIR] [--only SUBJECT]\n".utf8))
        exit(64)
    }
}

let matrix = FaultMatrix(short: short, profilesDirectory: profiles)
var rows: [MatrixRow] = []
let started = Date()
for subject in MatrixSubject.all where only.map({ subject.name == $0 }) ?? true {
    do {
        let subjectRows = try await matrix.run(subject)
        rows += subjectRows
        let results = MatrixResults(rows: subjectRows)
        print(results.summary.joined(separator: "\n"))
        for row in subjectRows where row.silent || row.unexplained {
            print("  \(row.silent ? "SILENT" : "UNEXPLAINED"): \(row.fault) in \(row.phase): \(row.outcome); device \(row.deviceStage) "
                  + "(\(row.deviceState)); reported \(row.reportedHolds); \(row.message)")
        }
    } catch {
        print("\(subject.name): could not run: \(error)")
        exit(1)
    }
}
// The same profiles over simulated serial lines: line faults (lost, corrupted and split bytes,
// line noise, a reset mid-frame) across what the baseline carried.
let wireMatrix = WireFaultMatrix(short: short, profilesDirectory: profiles)
for subject in WireMatrixSubject.all where only.map({ subject.name == $0 }) ?? true {
    do {
        let subjectRows = try await wireMatrix.run(subject)
        rows += subjectRows
        print(MatrixResults(rows: subjectRows).summary.joined(separator: "\n"))
        for row in subjectRows where row.silent || row.unexplained {
            print("  \(row.silent ? "SILENT" : "UNEXPLAINED"): \(row.fault) in \(row.phase): \(row.outcome); device \(row.deviceStage) "
                  + "(\(row.deviceState)); reported \(row.reportedHolds); \(row.message)")
        }
    } catch {
        print("\(subject.name): could not run: \(error)")
        exit(1)
    }
}
// Devices that behave as shipped firmware does (a bootloader that rejects the image after it was
// verified, an application that does not reset, a refusal before any program data): one update
// each, judged against what the device then holds.
var behaviourRows: [MatrixRow] = []
for behaviour in DeviceBehaviourRow.all where only.map({ behaviour.subject.name == $0 }) ?? true {
    do {
        let row = try await matrix.baseline(behaviour.subject)
        behaviourRows.append(row)
        let wrong = row.deviceStage != behaviour.truth.rawValue
        print("behaviour '\(behaviour.subject.name)': \(row.outcome), device \(row.deviceStage), reported \(row.reportedHolds)"
              + (row.silent ? " SILENT" : "") + (row.unexplained ? " UNEXPLAINED" : "")
              + (wrong ? " (the simulator did not reach its true stage \(behaviour.truth.rawValue))" : ""))
        if wrong { exit(1) }
    } catch {
        print("\(behaviour.subject.name): could not run: \(error)")
        exit(1)
    }
}
rows += behaviourRows
let results = MatrixResults(rows: rows)
let url = URL(fileURLWithPath: output)
try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
try Data(results.json.prettyText.utf8).write(to: url)
print("\(rows.count) cases (\(short ? "short" : "full")) in \(Int(Date().timeIntervalSince(started))) s: "
      + "\(rows.filter { $0.outcome == "verified" }.count) verified, \(rows.filter { $0.outcome == "error" }.count) errors, "
      + "\(results.silentCount) silent, \(results.unexplainedCount) unexplained; \(output)")
exit(results.silentCount == 0 && results.unexplainedCount == 0 ? 0 : 1)
