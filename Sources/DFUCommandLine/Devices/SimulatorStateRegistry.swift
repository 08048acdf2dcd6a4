import DFUSimulator
import Foundation

/// The simulated devices this command opened with `state=FILE`: their memory is saved to their
/// files when the command ends, whatever its outcome (a failed flash leaves a device holding
/// part of an image, which the next command should meet).
final class SimulatorStateRegistry: @unchecked Sendable {
    static let shared = SimulatorStateRegistry()

    private struct Entry {
        var world: SimulatedWorld
        var file: SimulatorStateFile
        var device: String
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func register(_ world: SimulatedWorld, file: SimulatorStateFile, device: String) {
        lock.withLock { entries.append(Entry(world: world, file: file, device: device)) }
    }

    /// Lets each device finish what its timers hold (a reset, a swap, a boot), saves it and
    /// forgets it. Returns why saving failed, one message per file.
    func saveAll() -> [String] {
        let saving = lock.withLock {
            defer { entries.removeAll() }
            return entries
        }
        var failures: [String] = []
        for entry in saving {
            entry.world.settle()
            do {
                try entry.file.save(entry.world, device: entry.device)
            } catch {
                failures.append(error.description)
            }
        }
        return failures
    }
}
