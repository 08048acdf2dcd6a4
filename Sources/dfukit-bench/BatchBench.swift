import DFUBatch
import DFUEngine
import DFUGATT
import DFULedger
import DFUProfile
import DFUSimulator
import Foundation
import Synchronization

/// `make bench` for provisioning lines: 64 simulated devices at concurrency 1, 4 and 8, total
/// simulated time against the ideal (one device's time at that concurrency's share of the
/// adapter's air time x 64 / concurrency), and ledger writes per second.
enum BatchBench {
    struct Row: Codable {
        var name: String
        var profile: String
        var devices: Int
        var concurrency: Int
        var sim_seconds: Double
        var ideal_seconds: Double
        var efficiency: Double
        var adapter_packets: Int
        var status: String
    }

    struct LedgerRow: Codable {
        var name: String
        var ledger: String
        var writes: Int
        var seconds: Double
        var writes_per_second: Double
        var concurrency: Int
    }

    /// Counts claims in memory: the bench measures scheduling, not the ledger.
    final class CountingLedger: BatchLedger, Sendable {
        private let claimed = Mutex(Set<String>())
        func claim(device: String) async throws -> Bool { claimed.withLock { $0.insert(device).inserted } }
        func heartbeat(device: String) async throws {}
        func record(_ attempt: AttemptRecord) async throws {}
        func release(device: String) async throws {}
    }

    struct Source: BatchDeviceSource {
        let fleet: SimulatedFleet
        var usesVirtualTime: Bool { true }
        func scan() async throws(FlashError) -> [Advertisement] { fleet.advertisements }
        func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
            guard let world = fleet.world(for: address, attempt: attempt, concurrency: concurrency) else {
                throw FlashError(kind: .transport, message: "no device \(address)")
            }
            return world
        }
    }

    static func lines(profile: Profile, image: FlashImage) async -> [Row] {
        var rows: [Row] = []
        for concurrency in [1, 4, 8] {
            do {
                let configuration = try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=64")
                var line = LineConfiguration()
                line.concurrency = concurrency
                let batch = try await BatchRunner(plan: .init(line: line, profile: profile, images: [image]),
                                                  source: Source(fleet: try SimulatedFleet(configuration)),
                                                  ledger: CountingLedger()).run()
                // One device alone, with the air-time share it gets at this concurrency.
                let single = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=1"))
                guard let world = single.world(for: single.advertisements[0].address, attempt: 1, concurrency: concurrency) else { continue }
                let one = await FlashSession(profile: profile, images: [image], transport: world,
                                             address: single.advertisements[0].address).run()
                let ideal = one.seconds * 64 / Double(concurrency)
                rows.append(Row(name: "batch/vendor-ctrlpt/64-devices-concurrency\(concurrency)", profile: profile.name,
                                devices: batch.devices, concurrency: concurrency, sim_seconds: batch.seconds,
                                ideal_seconds: ideal, efficiency: ideal / batch.seconds,
                                adapter_packets: configuration.adapterPackets,
                                status: batch.failed == 0 ? "verified" : "failed"))
            } catch {
                FileHandle.standardError.write(Data("batch bench: \(error)\n".utf8))
            }
        }
        return rows
    }

    /// SQLite in a temporary file; PostgreSQL when DFUKIT_BENCH_POSTGRES_URL names a server.
    static func ledgers() async -> [LedgerRow] {
        var urls = ["sqlite:" + FileManager.default.temporaryDirectory.appendingPathComponent("dfukit-bench-\(getpid()).sqlite").path]
        if let postgres = ProcessInfo.processInfo.environment["DFUKIT_BENCH_POSTGRES_URL"] { urls.append(postgres) }
        var rows: [LedgerRow] = []
        for url in urls {
            for concurrency in [1, 8] {
                do {
                    let ledger = try await LedgerURL(parsing: url).open()
                    let measurement = try await LedgerBenchmark.writesPerSecond(ledger: ledger, count: 200, concurrency: concurrency)
                    await ledger.close()
                    rows.append(LedgerRow(name: "ledger/\(url.hasPrefix("sqlite") ? "sqlite" : "postgresql")-concurrency\(concurrency)",
                                          ledger: ledger.location, writes: measurement.writes, seconds: measurement.seconds,
                                          writes_per_second: measurement.writesPerSecond, concurrency: concurrency))
                } catch {
                    FileHandle.standardError.write(Data("ledger bench \(url): \(error)\n".utf8))
                }
            }
        }
        return rows
    }
}
