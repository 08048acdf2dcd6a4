// Flashes a package to a simulated device and draws its progress: the smallest complete use
// of DFUKit.flash. Usage: flash-simulated PACKAGE [DEVICE] (default sim:vendor-ctrlpt).
import DFUKit
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let packagePath = arguments.first else {
    print("usage: flash-simulated PACKAGE [DEVICE]")
    exit(64)
}
let device = arguments.dropFirst().first ?? "sim:vendor-ctrlpt"

do {
    let package = try FirmwarePackage.open(path: packagePath)
    let profile = try ProfileLibrary.standard().load("vendor-ctrlpt")
    var shownPercent = -10
    for try await event in DFUKit.flash(package, profile: profile, device: device) {
        switch event {
        case let .connected(address, mtu):
            print("connected to \(address), ATT_MTU \(mtu)")
        case let .phaseStarted(name):
            print("phase \(name)")
        case let .progress(image, bytes, total, _):
            // One line per tenth, so the display suits a log as well as a terminal.
            let percent = total == 0 ? 100 : bytes * 100 / total
            if percent / 10 != shownPercent / 10 {
                shownPercent = percent
                let bar = String(repeating: "#", count: percent / 5).padding(toLength: 20, withPad: ".", startingAt: 0)
                print("\(image) [\(bar)] \(percent)% (\(bytes)/\(total) bytes)")
            }
        case let .resuming(attempt, of, reason):
            print("link lost (\(reason)): resuming, attempt \(attempt) of \(of)")
        case let .finished(report):
            print("\(report.status.rawValue): \(report.bytes) bytes, \(report.resumes) resume(s)")
            print("the device holds: \(report.deviceHolds.map(\.rawValue).joined(separator: " or "))")
            print("took \(String(format: "%.2f", report.seconds)) s on the transport's clock (simulated for sim:)")
        default:
            break
        }
    }
} catch let error as DFUKitError {
    print("error: \(error.message)")
    if let holds = error.report?.deviceHolds, !holds.isEmpty {
        print("the device holds: \(holds.map(\.rawValue).joined(separator: " or "))")
    }
    exit(error.exitCode)
} catch {
    print("error: \(error)")
    exit(65)
}
