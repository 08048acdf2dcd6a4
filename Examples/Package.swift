// swift-tools-version:6.0
// Programs that use DFUKit as another package would: through its library products, by path.
// `make test` builds them (scratch path .build/examples of the repository) and runs each.
//   flash-simulated PKG [DEVICE]   flash a package to a simulated device with a progress display
//   verify-packages DIR            check every package in a folder (DFUKitPackages alone)
//   batch-two PKG                  a two-device batch on a simulated fleet
//   readme-example PKG             the README's "Use DFUKit from Swift" example, verbatim
import PackageDescription

let package = Package(
    name: "DFUKitExamples",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "flash-simulated", dependencies: ["DFUKit"]),
        .executableTarget(name: "verify-packages", dependencies: ["DFUKitPackages"]),
        .executableTarget(name: "batch-two", dependencies: ["DFUKit"]),
        .executableTarget(name: "readme-example", dependencies: ["DFUKit"]),
    ]
)
