// swift-tools-version:6.0
// Programs that use DFUKit as another package would: through its library products, by path.
// `make test` builds them (scratch path .build/examples of the repository) and runs each.
//   flash-simulated PKG [DEVICE]   flash a package to a simulated device with a progress display
//   verify-packages DIR            check every package in a folder (DFUKitPackages alone)
//   batch-two PKG                  a two-device batch on a simulated fleet
//   readme-example PKG             the README's "Use DFUKit from Swift" example, verbatim
import PackageDescription

// A package found by path is known by its directory's name, not by its manifest's: this
// manifest is <checkout>/Examples/Package.swift, so DFUKit is the package "<checkout>".
let pathComponents = #filePath.split(separator: "/")
let dfukit = String(pathComponents[pathComponents.count - 3])

let package = Package(
    name: "DFUKitExamples",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "flash-simulated", dependencies: [.product(name: "DFUKit", package: dfukit)]),
        .executableTarget(name: "verify-packages", dependencies: [.product(name: "DFUKitPackages", package: dfukit)]),
        .executableTarget(name: "batch-two", dependencies: [.product(name: "DFUKit", package: dfukit)]),
        .executableTarget(name: "readme-example", dependencies: [.product(name: "DFUKit", package: dfukit)]),
    ]
)
