// Flashes two simulated devices at once with DFUKit.batch, printing each device's outcome
// and the summary. The ledger is in memory (MemoryBatchLedger): run twice in one process and
// the second batch skips both devices. Usage: batch-two PACKAGE.
import DFUKit
import Foundation

guard CommandLine.arguments.count == 2 else {
    print("usage: batch-two PACKAGE")
    exit(64)
}
do {
    var request = BatchRequest(profile: try ProfileLibrary.standard().load("vendor-ctrlpt"),
                               package: try FirmwarePackage.open(path: CommandLine.arguments[1]),
                               device: "sim:vendor-ctrlpt?fleet=2")
    request.line.concurrency = 2
    request.line.retries = 1
    for try await update in DFUKit.batch(request) {
        switch update {
        case let .event(.deviceStarted(address, attempt, slot, _)):
            print("\(address): attempt \(attempt) started in slot \(slot)")
        case let .event(.deviceFinished(address, succeeded, _, seconds, error)):
            print("\(address): " + (succeeded ? "flashed in \(String(format: "%.2f", seconds)) s" : "failed: \(error ?? "?")"))
        case let .finished(summary):
            print("\(summary.devices) device(s): \(summary.succeeded) flashed, \(summary.failed) failed, "
                  + "\(summary.skipped) skipped")
            exit(summary.failed == 0 ? 0 : 1)
        default:
            break
        }
    }
} catch let error as DFUKitError {
    print("error: \(error.message)")
    exit(error.exitCode)
} catch {
    print("error: \(error)")
    exit(65)
}
