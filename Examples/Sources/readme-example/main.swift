import DFUKit

let package = try FirmwarePackage.open(path: CommandLine.arguments[1])
let profile = try ProfileLibrary.standard().load("vendor-ctrlpt")
for try await event in DFUKit.flash(package, profile: profile, device: "sim:vendor-ctrlpt") {
    switch event {
    case let .progress(_, bytes, total, _): print("\(bytes * 100 / total)%")
    case let .finished(report): print("\(report.status): the device holds \(report.deviceHolds.map(\.rawValue))")
    default: break
    }
}
