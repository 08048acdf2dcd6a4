import DFUEngine
import DFUGATT
import DFUHCITransport
import DFUProfile
import DFUSimulator
import Foundation

/// `dfukit-bench [--output FILE] [--bytes N] [--checksums]`: flashes an image over the simulated
/// link with several link settings and profiles, and reports simulated time, throughput, link
/// efficiency, the protocol ceiling and CPU time per MiB; then checksum throughput
/// (`checksums.json`; `--checksums`: only that). Build in release mode (`make bench`).
///
/// Both efficiencies come from the simulator's airtime model (`LinkAirtime`):
/// - `physical_efficiency` (= `efficiency`) = ideal / measured seconds, ideal = bytes over the
///   link's physical limit (`BenchScenario.idealSeconds`): the share of what this PHY, data
///   length, MTU, interval and event length could carry that the session achieved; <= 1.
/// - `ceiling` = ideal / the protocol's least seconds on the same link (the `...Ceiling`
///   types, which fill events with the same airtime, `LinkSlots`): the most of the physical
///   limit the protocol's round trips allow; `efficiency_of_ceiling` = physical_efficiency /
///   ceiling: how close DFUKit comes to its protocol's best.
struct BenchResult: Codable {
    var name: String
    var profile: String
    var bytes: Int
    var sim_seconds: Double
    var bytes_per_second: Double
    var efficiency: Double
    var ceiling: Double
    var efficiency_of_ceiling: Double
    var mtu: Int
    var interval_ms: Double
    var packets_per_event: Int
    var cpu_seconds_per_mib: Double
    var status: String
    var prn: Int?
    var write: String?
    var window: Int?
    var reassembly: Bool?
    /// What efficiency was measured on: "session" or "transfer" (the upload phase alone).
    var measured: String = "session"
    /// Set for rows over a real stack (`hci:...`): their seconds are wall-clock.
    var transport: String?
    var phy: String?
    var data_length: Int?
    var event_length_ms: Double?
    var physical_efficiency: Double?
    /// The whole session, scan to confirmation, as a factory line pays for it.
    var end_to_end_seconds: Double?
    /// Seconds of each phase (`SessionPhases`): scan, connect, discovery, transfer, reboot, confirm.
    var phases: [String: Double]?
}

func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func pseudoRandomBytes(_ size: Int) -> [UInt8] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<size).map { _ -> UInt8 in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}

func loadProfile(_ name: String) -> Profile {
    do {
        return try ProfileLibrary.standard().load(name)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(65)
    }
}

/// Runs one scenario; `ceiling` gives the protocol's minimum seconds for it.
func run(_ scenario: BenchScenario, profile: Profile, image: FlashImage, options: FlashOptions,
         deviceOptions: String = "", transferOnly: Bool = false,
         ceilingSeconds: (LinkSettings, FlashTiming) -> Double) async -> BenchResult {
    var configuration: SimulatorConfiguration
    do {
        configuration = try SimulatorConfiguration(parsing: scenario.device + (deviceOptions.isEmpty ? "" : "?" + deviceOptions))
    } catch {
        fatalError("bench scenario \(scenario.name): \(error)")
    }
    configuration.link = scenario.link
    let world: SimulatedWorld
    do {
        world = try SimulatedDeviceCatalog.makeWorld(configuration)
    } catch {
        fatalError("bench scenario \(scenario.name): \(error)")
    }
    let phases = SessionPhases(world: world)
    let cpuStart = processCPUSeconds()
    let report = await FlashSession(profile: profile, images: [image], transport: world, address: nil,
                                    options: options, onEvent: phases.record).run()
    let cpu = processCPUSeconds() - cpuStart
    if let error = report.error { FileHandle.standardError.write(Data("\(scenario.name): \(error)\n".utf8)) }
    let measuredSeconds = transferOnly ? (report.transferSeconds ?? report.seconds) : report.seconds
    let efficiency = scenario.idealSeconds / measuredSeconds  // physical efficiency
    let ceiling = scenario.idealSeconds / ceilingSeconds(scenario.link, configuration.flash)
    return BenchResult(
        name: scenario.name, profile: scenario.profile, bytes: scenario.bytes, sim_seconds: report.seconds,
        bytes_per_second: Double(scenario.bytes) / measuredSeconds, efficiency: efficiency, ceiling: ceiling,
        efficiency_of_ceiling: efficiency / ceiling, mtu: scenario.link.mtu,
        interval_ms: Double(scenario.link.connectionInterval / .microseconds(1)) / 1000,
        packets_per_event: scenario.link.packetsPerEvent,
        cpu_seconds_per_mib: cpu / (Double(scenario.bytes) / 1_048_576), status: report.status.rawValue,
        measured: transferOnly ? "transfer" : "session", phy: scenario.link.phy.rawValue,
        data_length: scenario.link.dataLength,
        event_length_ms: Double(scenario.link.effectiveEventLength / .microseconds(1)) / 1000,
        physical_efficiency: efficiency, end_to_end_seconds: report.seconds,
        phases: phases.phases(end: Double(world.now / .microseconds(1)) / 1e6))
}

/// `--hci PROFILE=ADDRESS`: also upload over DFUKit's own HCI host to a device (Bumble's
/// virtual controllers in `make bench`).
nonisolated(unsafe) var hciTargets: [(profile: String, address: String)] = []
/// `--checksums`: measure checksum throughput only.
nonisolated(unsafe) var checksumsOnly = false

func arguments() -> (output: String, bytes: Int) {
    var output = ".build/bench/results.json"
    var bytes = 512 * 1024
    var iterator = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--output": output = iterator.next() ?? output
        case "--bytes": bytes = iterator.next().flatMap(Int.init) ?? bytes
        case "--checksums": checksumsOnly = true
        case "--hci":
            let parts = (iterator.next() ?? "").split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { hciTargets.append((parts[0], parts[1])) }
        default:
            FileHandle.standardError.write(Data("usage: dfukit-bench [--output FILE] [--bytes N] [--checksums]\n".utf8))
            exit(64)
        }
    }
    return (output, bytes)
}

func fixed(_ value: Double, _ digits: Int) -> String {
    let scale = pow(10, Double(digits))
    return String((value * scale).rounded() / scale)
}

func printRow(_ result: BenchResult) {
    let order = ["scan", "connect", "discovery", "transfer", "reboot", "confirm"]
    let phases = order.compactMap { name in result.phases?[name].map { "\(name.prefix(4)) \(fixed($0, 2))" } }
    print([result.name.padding(toLength: 72, withPad: " ", startingAt: 0),
           String(result.bytes).leftPadded(7), fixed(result.sim_seconds, 2).leftPadded(7),
           fixed(result.bytes_per_second / 1000, 1).leftPadded(7), fixed(result.efficiency, 4).leftPadded(10),
           fixed(result.ceiling, 4).leftPadded(8), fixed(result.efficiency_of_ceiling, 3).leftPadded(10),
           fixed(result.cpu_seconds_per_mib, 3).leftPadded(9), result.status,
           fixed(result.end_to_end_seconds ?? 0, 2).leftPadded(7), phases.joined(separator: ", ")].joined(separator: " "))
}

let (outputPath, imageBytes) = arguments()

/// Measures and prints checksum throughput, and writes `checksums.json` beside `outputPath`.
func benchChecksums() {
    print("checksum                                          MB/s (64 MiB, best of 3)")
    let rows = ChecksumBench.rows()
    for row in rows {
        print("\(row.name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(fixed(row.megabytes_per_second, 0).leftPadded(6))")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let url = URL(fileURLWithPath: outputPath).deletingLastPathComponent().appendingPathComponent("checksums.json")
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(rows).write(to: url)
    } catch {
        FileHandle.standardError.write(Data("cannot write \(url.path): \(error)\n".utf8))
        exit(74)
    }
}

if checksumsOnly {
    benchChecksums()
    exit(0)
}
var results: [BenchResult] = []
print("scenario (PHY-data length-MTU-interval-event length-packets per event)     bytes   sim s    kB/s physical ceiling of ceiling CPU s/MiB status  e2e s  phases (s)")

// The vendor control point: every segment written with response.
let vendor = loadProfile("vendor-ctrlpt")
let vendorImage = FlashImage(name: "application", version: "1.0.0", data: pseudoRandomBytes(imageBytes))
let vendorSettings: [LinkSettings] = [
    LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 6, mtu: 23, dataLength: 27),
    LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 6, mtu: 247),
    LinkSettings(connectionInterval: .microseconds(7500), packetsPerEvent: 4, mtu: 247),
    LinkSettings(connectionInterval: .milliseconds(30), packetsPerEvent: 6, mtu: 247),
    LinkSettings(connectionInterval: .milliseconds(45), packetsPerEvent: 1, mtu: 185),
    LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 6, mtu: 517),
    LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 247, phy: .le2M),
    LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 32, mtu: 247, phy: .le2M,
                 eventLength: .microseconds(3750)),
]
for link in vendorSettings {
    let scenario = BenchScenario(name: "vendor-ctrlpt/\(BenchScenario.label(link))", profile: "vendor-ctrlpt", device: "vendor-ctrlpt",
                                 link: link, bytes: imageBytes)
    let result = await run(scenario, profile: vendor, image: vendorImage, options: FlashOptions()) { link, flash in
        VendorControlPointCeiling(link: link, flash: flash).minimumSeconds(imageSize: imageBytes)
    }
    results.append(result)
    printRow(result)
}

// Nordic Secure DFU: PRN 0 and 12 with packets written without response, and packets written
// with response (phones' DFU apps at their worst), at MTU 23 and 247.
let nordic = loadProfile("nordic-secure-dfu")
let nordicData = pseudoRandomBytes(imageBytes)
let initPacket = UnsignedInitPacket.make(for: nordicData)
let nordicImage = FlashImage(name: "application", version: "1.0.0", data: nordicData, initPacket: initPacket)
for mtu in [23, 247] {
    for (prn, write) in [(0, GATTWriteType.withoutResponse), (12, .withoutResponse), (0, .withResponse)] {
        let link = LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: 6, mtu: mtu,
                                dataLength: mtu == 23 ? 27 : 251)
        let name = "nordic-secure-dfu/\(BenchScenario.label(link))-prn\(prn)-\(write.rawValue)"
        let scenario = BenchScenario(name: name, profile: "nordic-secure-dfu", device: "nordic-secure-dfu", link: link,
                                     bytes: imageBytes)
        let options = FlashOptions(parameters: ["prn": .integer(UInt64(prn))], writeTypes: ["packet": write])
        var result = await run(scenario, profile: nordic, image: nordicImage, options: options) { link, flash in
            NordicSecureCeiling(link: link, flash: flash, prn: prn, withResponse: write == .withResponse)
                .minimumSeconds(imageSize: imageBytes, initPacketSize: initPacket.count)
        }
        result.prn = prn
        result.write = write.rawValue
        results.append(result)
        printRow(result)
    }
}

// MCUmgr SMP: window 1, 3 and buf_count - 1, with and without reassembly, at MTU 247 and 498.
// The simulated device has its slot erased beforehand and writes flash at 1 us per byte, so
// the rows measure the link and the protocol; efficiency is over the upload phase.
let smp = loadProfile("mcumgr-smp")
let smpBuilt = GeneratedMCUbootImage.make(payload: pseudoRandomBytes(imageBytes - 32 - 40))
let smpImage = FlashImage(name: "image-0", version: "1.0.0", data: smpBuilt.image, imageHash: smpBuilt.hash)
let bufferSize = 2475, bufferCount = 5
for (phy, mtu) in [(LinkPHY.le1M, 247), (.le1M, 498), (.le2M, 498)] {
    for reassembly in [false, true] {
        for window in [1, 3, bufferCount - 1] {
            let link = LinkSettings(connectionInterval: .milliseconds(15), packetsPerEvent: phy == .le2M ? 32 : 6,
                                    mtu: mtu, phy: phy)
            let label = window == bufferCount - 1 ? "bufcount-1" : "\(window)"
            let name = "mcumgr-smp/\(BenchScenario.label(link))-window\(label)-\(reassembly ? "reassembly" : "single-write")"
            let scenario = BenchScenario(name: name, profile: "mcumgr-smp", device: "mcumgr-smp", link: link, bytes: imageBytes)
            let options = FlashOptions(parameters: ["window": .integer(UInt64(window)),
                                                    "reassembly": .integer(reassembly ? 1 : 0),
                                                    "mode": .text("upload-only")])
            let chunk = reassembly ? max(bufferSize, 128) - 96 : max(mtu, 128) - 3 - 96
            var result = await run(scenario, profile: smp, image: smpImage, options: options,
                                   deviceOptions: "erase=none&write-ns-per-byte=1000&buf-size=\(bufferSize)&buf-count=\(bufferCount)",
                                   transferOnly: true) { link, flash in
                SMPCeiling(link: link, flash: flash, window: window, chunkSize: chunk)
                    .minimumTransferSeconds(imageSize: imageBytes)
            }
            result.window = window
            result.reassembly = reassembly
            results.append(result)
            printRow(result)
        }
    }
}

// Over DFUKit's own HCI host against Bumble's virtual controllers: the virtual link has no
// timing model (no connection events, no air time), so these rows measure the host stack, not
// BLE throughput; no ceiling applies.
for target in hciTargets {
    let profile = loadProfile(target.profile)
    let image: FlashImage
    if target.profile == "nordic-secure-dfu" {
        image = nordicImage
    } else if target.profile == "mcumgr-smp" {
        image = smpImage
    } else {
        image = FlashImage(name: "application", version: "1.0.0", data: pseudoRandomBytes(imageBytes))
    }
    let transport = HCIGATTTransport(address: target.address)
    let cpuStart = processCPUSeconds()
    let report = await FlashSession(profile: profile, images: [image], transport: transport, address: nil).run()
    let cpu = processCPUSeconds() - cpuStart
    await transport.close()
    if let error = report.error { FileHandle.standardError.write(Data("bumble \(target.profile): \(error)\n".utf8)) }
    let seconds = report.transferSeconds ?? report.seconds
    var result = BenchResult(
        name: "bumble/\(target.profile)/hci-tcp (virtual link: no timing model)", profile: target.profile,
        bytes: image.data.count, sim_seconds: seconds, bytes_per_second: Double(image.data.count) / seconds,
        efficiency: 0, ceiling: 0, efficiency_of_ceiling: 0, mtu: 247, interval_ms: 0, packets_per_event: 0,
        cpu_seconds_per_mib: cpu / (Double(image.data.count) / 1_048_576), status: report.status.rawValue,
        measured: "transfer")
    result.transport = "hci:" + target.address
    results.append(result)
    print("\(result.name.padding(toLength: 60, withPad: " ", startingAt: 0)) \(fixed(seconds, 2)) s wall, \(fixed(result.bytes_per_second / 1000, 1)) kB/s, \(result.status)")
}

// Provisioning lines: 64 simulated devices, and the ledger.
print("")
print("batch                                          devices concurrency  sim s  ideal s efficiency")
let batchImage = FlashImage(name: "application", version: "1.0.0", data: pseudoRandomBytes(64 * 1024))
let batchRows = await BatchBench.lines(profile: vendor, image: batchImage)
for row in batchRows {
    print([row.name.padding(toLength: 46, withPad: " ", startingAt: 0), String(row.devices).leftPadded(7),
           String(row.concurrency).leftPadded(11), fixed(row.sim_seconds, 1).leftPadded(6),
           fixed(row.ideal_seconds, 1).leftPadded(8), fixed(row.efficiency, 3).leftPadded(10)].joined(separator: " "))
}
print("")
let ledgerRows = await BatchBench.ledgers()
for row in ledgerRows {
    print("\(row.name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(fixed(row.writes_per_second, 1).leftPadded(9)) writes/s (\(row.writes) writes, \(row.concurrency) task(s))")
}

print("")
benchChecksums()

let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
do {
    let url = URL(fileURLWithPath: outputPath)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try encoder.encode(results).write(to: url)
    try encoder.encode(batchRows).write(to: url.deletingLastPathComponent().appendingPathComponent("batch.json"))
    try encoder.encode(ledgerRows).write(to: url.deletingLastPathComponent().appendingPathComponent("ledger.json"))
    print("wrote \(outputPath), batch.json, ledger.json and checksums.json beside it")
} catch {
    FileHandle.standardError.write(Data("cannot write \(outputPath): \(error)\n".utf8))
    exit(74)
}
if results.contains(where: { $0.status != "verified" }) { exit(1) }

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
