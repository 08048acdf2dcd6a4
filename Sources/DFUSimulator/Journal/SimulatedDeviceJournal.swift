import DFUGATT
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// `sim:NAME?journal=DIR`: what simulated devices live through, appended to `DIR/journal.log`,
/// one JSON object per line, so that a test can see from the devices' side what several
/// processes (each with its own in-memory fleet standing for the same physical devices) did to
/// them, e.g. whether two stations ever wrote to one device at once.
///
/// Every process opens the file with `O_APPEND` and writes each line with one `write(2)`, so
/// lines from different processes never interleave and a process killed with SIGKILL leaves
/// only whole lines. Each line has:
/// - `t`: wall time, `CLOCK_REALTIME` in nanoseconds since the epoch (comparable across processes)
/// - `pid`: the writing process; `device`: the address the device was connected at
/// - `event`: `connect` (a link is up), `disconnect` (the link ended, with `reason`), `write`
///   (an attribute write reached the device: its `handle` and value `length`; the image's bytes
///   arrive this way), `activated` (`sha256`, hex, of the image the device runs from its next
///   reset on: a device that accepted a whole image and was told to switch to it), `reset` (the
///   device rebooted by itself: after an activation, or a reset command)
///
/// A journal that cannot be written is a test set-up error: opening fails loudly; a failed
/// write later is ignored (the device goes on; the checker then sees a gap).
public final class SimulatedDeviceJournal: Sendable {
    /// The file every line goes to.
    public let path: String
    private let descriptor: Int32
    private let processID = Int(getpid())

    private static let opened = Mutex<[String: SimulatedDeviceJournal]>([:])

    /// The journal in `directory` (created if missing), opened once per process.
    package static func opening(directory: String) throws(SimulatorConfigurationError) -> SimulatedDeviceJournal {
        let path = directory.hasSuffix("/") ? directory + "journal.log" : directory + "/journal.log"
        return try opened.withLock { journals throws(SimulatorConfigurationError) -> SimulatedDeviceJournal in
            if let journal = journals[path] { return journal }
            if mkdir(directory, 0o755) != 0, errno != EEXIST {
                throw SimulatorConfigurationError("journal: cannot create the directory '\(directory)' (errno \(errno))")
            }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw SimulatorConfigurationError("journal: cannot open '\(path)' for appending (errno \(errno))")
            }
            let journal = SimulatedDeviceJournal(path: path, descriptor: descriptor)
            journals[path] = journal
            return journal
        }
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// What happened to a device.
    public enum Event: Sendable, Equatable {
        /// A central connected.
        case connect
        /// The link ended, and why.
        case disconnect(reason: String)
        /// A write of `length` bytes arrived at `handle`.
        case write(handle: UInt16, length: Int)
        /// The device activated the image with this SHA-256.
        case activated(sha256: [UInt8])
        /// The device reset.
        case reset
    }

    /// Appends one line for `device`, stamped with the wall clock now.
    public func append(_ event: Event, device: DeviceAddress) {
        let line = Self.line(for: event, device: device, processID: processID, wallNanoseconds: Self.wallNanoseconds())
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The JSON line (without its newline), for tests.
    static func line(for event: Event, device: DeviceAddress, processID: Int, wallNanoseconds: Int64) -> String {
        var fields = ["\"t\":\(wallNanoseconds)", "\"pid\":\(processID)", "\"device\":\"\(device)\""]
        switch event {
        case .connect:
            fields.append("\"event\":\"connect\"")
        case let .disconnect(reason):
            fields.append("\"event\":\"disconnect\"")
            fields.append("\"reason\":\"\(escaped(reason))\"")
        case let .write(handle, length):
            fields += ["\"event\":\"write\"", "\"handle\":\(handle)", "\"length\":\(length)"]
        case let .activated(sha256):
            fields.append("\"event\":\"activated\"")
            fields.append("\"sha256\":\"\(sha256.map { String($0, radix: 16).leftPadded(to: 2) }.joined())\"")
        case .reset:
            fields.append("\"event\":\"reset\"")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func wallNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// A device that can say which image it will run, for the journal's `activated` lines.
package protocol JournalledFirmware: SimulatedPeripheral {
    /// The SHA-256 of the image the device runs, or will run after its pending reset; nil for
    /// its factory image.
    var activatedImageSHA256: [UInt8]? { get }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
