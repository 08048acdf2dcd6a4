// Checks every firmware package in a folder, as a build server would before publishing them:
// each opens, and each image matches its manifest's sizes and checksums (Nordic init
// packets, MCUboot hashes). Uses DFUKitPackages alone: no profile, no transport.
// Usage: verify-packages DIR. Exit 0 when every package is intact, 1 otherwise.
import DFUKitPackages
import Foundation

guard CommandLine.arguments.count == 2 else {
    print("usage: verify-packages DIR")
    exit(64)
}
let folder = URL(fileURLWithPath: CommandLine.arguments[1])
let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    .filter { ["zip", "bin", "hex", "gbl", "img"].contains(($0 as NSString).pathExtension) }
    .sorted()
var intact = 0
for name in names {
    let path = folder.appendingPathComponent(name).path
    do {
        let package = try FirmwarePackage.open(path: path)
        try package.requireIntact()
        intact += 1
        let images = package.images.map { "\($0.name) \($0.data.count) bytes" }.joined(separator: ", ")
        print("ok      \(name): \(package.kind.name); \(images)")
    } catch {
        print("FAILED  \(name): \(error)")
    }
}
print("\(intact) of \(names.count) packages intact")
exit(intact == names.count && !names.isEmpty ? 0 : 1)
