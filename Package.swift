// swift-tools-version:6.0
// DFUKit: firmware updates for Bluetooth Low Energy devices, driven by declarative profiles.
//
// Layers, lowest first (each folder under Sources/ is one):
//   C libraries (CZlib, CZip, CYAML, CCryptoShim, CTerminalShim)
//   -> DFUBytes      byte codecs: UUIDs, integers, length-header framing, segmenting,
//                    reassembly, CRC32 / CRC16 / SHA-256 / signatures
//   -> DFUPackage    firmware packages (zip + manifest.json), Intel HEX
//   -> DFUProfile    profile files (YAML / JSON) -> typed model, expressions
//   -> DFUGATT       the abstract GATT link every transport implements
//   -> DFUWire       links without GATT: a byte stream or datagrams (serial, UDP) carrying a
//                    profile's messages framed as its `links:` entry says, seen as a GATT link
//   -> DFUSerial     real wires: serial ports through termios, pseudo-terminals, UDP sockets, the USB
//                    serial ports of this machine
//   -> DFUSimulator  a transport: simulated peripherals on a virtual-clock link model
//   -> DFUHCI        a transport: the userspace HCI host (H4 pipes, ACL, L2CAP, Security Manager, btsnoop)
//   -> DFUATT        the GATT client: ATT PDUs and client, a GATTLink over an ATT bearer
//   -> DFUHCITransport  hci: devices (DFUHCI + DFUATT as a GATTTransport)
//   -> DFUCapture    captures read into GATT terms: btsnoop (Android, btmon, Bumble), pcap of the LE
//                    link layer, DFUKit's own session recordings (--record), connections and ATT operations
//   -> DFUEngine     runs a profile's procedure over any GATT link
//   -> DFUTrace      a GATT transport wrapper that reads what goes over a link by a profile, and a
//                    generic device made from a profile alone (`dfukit profile trace`); recording a
//                    session, reading a capture by a profile, replaying a captured device
//   -> DFUBatch      provisioning lines: many devices at once, retries, checks
//   -> DFULedger     the provisioning ledger (SQLite / PostgreSQL: CSQLite, CPostgres) and batch reports
//   -> DFUStation    the station dashboard: an HTTP server (libmicrohttpd: CMicroHTTPD) serving a line's
//                    live state from the ledger as a web page, JSON, server-sent events and line controls
//   -> DFUKit        the library: one import for all of the above (but the ledger), the embedding
//                    API (flash, scan, exec, batch as async sequences of events) and the registry
//                    of device transports (sim:, hci:, bluez:, and an embedder's own)
//   -> DFUKitPackages  packages alone (DFUPackage + DFUBytes), for a build server that only verifies
//   -> DFUCommandLine / dfukit   the CLI
//   -> DFUFaultMatrix / dfukit-fault-matrix   boundary sweeps and the fault matrix over the simulators
import PackageDescription

// Access: what only this package uses is `package`; `public` is what a program outside it needs.
// The command line, the bench and the fault matrix are built as such programs
// (`packageAccess: false`): they see only the public API, so the compiler proves that everything
// the CLI needs is public. Test targets keep package access.

let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "DFUKit",
    products: [
        .library(name: "DFUKit", targets: ["DFUKit"]),
        .library(name: "DFUKitPackages", targets: ["DFUKitPackages"]),
        .executable(name: "dfukit", targets: ["dfukit"]),
        .executable(name: "dfukit-bench", targets: ["dfukit-bench"]),
        .executable(name: "dfukit-fault-matrix", targets: ["dfukit-fault-matrix"]),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZip", path: "Sources/CZip", pkgConfig: "libzip",
                       providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1",
                       providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CCBOR", path: "Sources/CCBOR", pkgConfig: "libcbor",
                       providers: [.apt(["libcbor-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CBluetooth", path: "Sources/CBluetooth", pkgConfig: "bluez",
                       providers: [.apt(["libbluetooth-dev"])]),
        .target(name: "CCryptoShim", path: "Sources/CCryptoShim",
                linkerSettings: [.linkedLibrary("cryptopp")]),
        .target(name: "CTerminalShim", path: "Sources/CTerminalShim"),

        .target(name: "DFUBytes", dependencies: ["CZlib", "CCryptoShim", "CCBOR"], swiftSettings: swiftSettings),
        .target(name: "DFUPackage", dependencies: ["DFUBytes", "CZip"], swiftSettings: swiftSettings),
        .target(name: "DFUProfile", dependencies: ["DFUBytes", "DFUPackage", "CYAML"], swiftSettings: swiftSettings),
        .target(name: "DFUGATT", dependencies: ["DFUBytes"], swiftSettings: swiftSettings),
        .target(name: "DFUHCI", dependencies: ["DFUBytes", "DFUGATT"], swiftSettings: swiftSettings),
        .target(name: "DFUWire", dependencies: ["DFUBytes", "DFUGATT"], swiftSettings: swiftSettings),
        .target(name: "DFUSerial", dependencies: ["DFUWire", "DFUGATT", "CTerminalShim"], swiftSettings: swiftSettings),
        .target(name: "DFUSimulator", dependencies: ["DFUBytes", "DFUGATT", "DFUWire", "DFUPackage"], swiftSettings: swiftSettings),
        .target(name: "DFUATT", dependencies: ["DFUBytes", "DFUGATT"], swiftSettings: swiftSettings),
        .target(name: "DFUCapture", dependencies: ["DFUBytes", "DFUGATT", "DFUHCI", "DFUATT", "CZlib"],
                swiftSettings: swiftSettings),
        .target(name: "DFUEngine",
                dependencies: ["DFUBytes", "DFUPackage", "DFUProfile", "DFUGATT"],
                swiftSettings: swiftSettings),
        .target(name: "DFUTrace", dependencies: ["DFUBytes", "DFUProfile", "DFUGATT", "DFUEngine", "DFUWire", "DFUCapture"],
                swiftSettings: swiftSettings),
        .target(name: "DFULedger", dependencies: ["DFUBytes", "CSQLite", "CPostgres"], swiftSettings: swiftSettings),
        .target(name: "DFUStation", dependencies: ["DFUBytes", "DFULedger", "CMicroHTTPD"], swiftSettings: swiftSettings),
        .target(name: "DFUHCITransport", dependencies: ["DFUHCI", "DFUATT", "DFUGATT"], swiftSettings: swiftSettings),
        .target(name: "DFUBlueZ", dependencies: ["DFUBytes", "DFUGATT", "DFUATT", "DFUHCI", "CBluetooth"],
                swiftSettings: swiftSettings),
        .target(name: "DFUBatch",
                dependencies: ["DFUEngine", "DFUProfile", "DFUPackage", "DFUGATT"],
                swiftSettings: swiftSettings),
        .target(name: "DFUKit",
                dependencies: ["DFUBytes", "DFUPackage", "DFUProfile", "DFUGATT", "DFUSimulator", "DFUHCI", "DFUATT",
                               "DFUHCITransport", "DFUBlueZ", "DFUEngine", "DFUBatch", "DFUWire", "DFUSerial", "DFUCapture",
                               "DFUTrace"],
                swiftSettings: swiftSettings),
        .target(name: "DFUKitPackages", dependencies: ["DFUPackage", "DFUBytes"], swiftSettings: swiftSettings),
        .target(name: "DFUCommandLine",
                dependencies: ["DFUKit", "DFULedger", "DFUTrace", "DFUStation"],
                packageAccess: false, swiftSettings: swiftSettings),
        .target(name: "DFUFaultMatrix",
                dependencies: ["DFUBytes", "DFUPackage", "DFUProfile", "DFUGATT", "DFUSimulator", "DFUEngine", "DFUWire", "DFUKit"],
                packageAccess: false, swiftSettings: swiftSettings),
        .executableTarget(name: "dfukit", dependencies: ["DFUCommandLine"], packageAccess: false,
                          swiftSettings: swiftSettings),
        .executableTarget(name: "dfukit-fault-matrix", dependencies: ["DFUFaultMatrix", "DFUBytes"],
                          packageAccess: false, swiftSettings: swiftSettings),
        .executableTarget(name: "dfukit-bench",
                          dependencies: ["DFUBytes", "DFUPackage", "DFUProfile", "DFUGATT", "DFUSimulator", "DFUEngine",
                                         "DFULedger", "DFUBatch", "DFUHCITransport"],
                          packageAccess: false, swiftSettings: swiftSettings),

        .testTarget(name: "DFUBytesTests", dependencies: ["DFUBytes"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUPackageTests", dependencies: ["DFUPackage", "DFUBytes"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUProfileTests", dependencies: ["DFUProfile", "DFUBytes"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUGATTTests", dependencies: ["DFUGATT"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUWireTests", dependencies: ["DFUWire", "DFUGATT", "DFUBytes"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUSerialTests", dependencies: ["DFUSerial", "DFUWire", "DFUGATT"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUATTTests", dependencies: ["DFUATT", "DFUGATT", "DFUBytes"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUSimulatorTests", dependencies: ["DFUSimulator", "DFUGATT", "DFUBytes", "DFUWire"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUCaptureTests", dependencies: ["DFUCapture", "DFUGATT", "DFUBytes", "DFUHCI", "DFUATT"],
                    exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUHCITests", dependencies: ["DFUHCI", "DFUGATT", "DFUBytes"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUEngineTests",
                    dependencies: ["DFUEngine", "DFUSimulator", "DFUProfile", "DFUPackage", "DFUGATT", "DFUBytes"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "DFUTraceTests",
                    dependencies: ["DFUTrace", "DFUEngine", "DFUSimulator", "DFUProfile", "DFUPackage", "DFUGATT", "DFUBytes"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "DFULedgerTests", dependencies: ["DFULedger", "DFUBytes"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUStationTests", dependencies: ["DFUStation", "DFULedger", "DFUBytes"], swiftSettings: swiftSettings),
        .testTarget(name: "DFUBatchTests",
                    dependencies: ["DFUBatch", "DFUEngine", "DFUSimulator", "DFUProfile", "DFUPackage", "DFUGATT"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "DFUBlueZTests",
                    dependencies: ["DFUBlueZ", "DFUATT", "DFUGATT", "DFUHCI", "DFUBytes", "CBluetooth"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "DFUCommandLineTests", dependencies: ["DFUCommandLine", "DFUKit", "DFUBytes", "DFUPackage"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "DFUKitTests", dependencies: ["DFUKit", "DFUKitPackages", "DFUCommandLine"], exclude: ["Fixtures"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "DFUFaultMatrixTests",
                    dependencies: ["DFUFaultMatrix", "DFUEngine", "DFUSimulator", "DFUProfile", "DFUPackage", "DFUBytes"],
                    swiftSettings: swiftSettings),
    ],
    cxxLanguageStandard: .cxx17
)
