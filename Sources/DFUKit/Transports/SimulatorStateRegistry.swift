import DFUSimulator
import Foundation

/// The simulated devices opened with `state=FILE` (`sim:NAME?state=FILE`): their memory is
/// saved to their files by `saveAll()`, whatever the outcome (a failed flash leaves a device
/// holding part of an image, which the next run should meet). `dfukit` saves when each command
/// ends; an embedder calls `saveAll()` when it is done with such devices.
public final class SimulatorStateRegistry: @unchecked Sendable {
    /// The registry the `sim:` transport scheme registers its devices in.
    public static let shared = SimulatorStateRegistry()

    private struct Entry {
        var world: SimulatedWorld
        var file: SimulatorStateFile
        var device: String
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Remembers that `world`'s device `device` is to be saved to `file`.
    public func register(_ world: SimulatedWorld, file: SimulatorStateFile, device: String) {
        lock.withLock { entries.append(Entry(world: world, file: file, device: device)) }
    }

    /// Lets each device finish what its timers hold (a reset, a swap, a boot), saves it and
    /// forgets it. Returns why saving failed, one message per file.
    public func saveAll() -> [String] {
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
