import DFUCapture
import DFUGATT
import DFUProfile
import DFUTrace

/// `sim:replay?capture=FILE`: the device of a capture (a `--record` file, btsnoop, pcap)
/// answering as it did. DFUKit must do what the captured client did; the first request the
/// capture did not see ends the run with the difference named (`ReplayTransport`).
struct SimulatedReplayTarget {
    /// The device name that makes a `sim:` target a replay.
    static let deviceName = "replay"
    /// The keys it takes.
    static let keys = ["capture"]

    /// The capture file.
    var capture: String

    /// Nil when the target names another simulated device.
    static func parse(_ target: String) throws(DFUKitError) -> SimulatedReplayTarget? {
        let device = "sim:\(target)"
        let (name, query) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        guard name == deviceName else { return nil }
        var capture: String?
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, keys.contains(parts[0]) else {
                throw DFUKitError(kind: .usage, message: "\(device): sim:replay takes capture=FILE only, not '\(pair)'")
            }
            capture = parts[1]
        }
        guard let capture, !capture.isEmpty else {
            throw DFUKitError(kind: .usage, message: "\(device): name the capture to replay: sim:replay?capture=FILE "
                              + "(a --record file, a btsnoop log or a pcap)")
        }
        return SimulatedReplayTarget(capture: capture)
    }

    /// Reads the capture (every check that needs no device: it exists, it is one, it holds a
    /// connection).
    func session() throws(DFUKitError) -> CapturedSession {
        let session = try CaptureFile.read(capture)
        guard !session.connections.isEmpty else {
            throw DFUKitError(kind: .usage, message: "sim:replay?capture=\(capture): the capture holds no connection to replay"
                              + (session.notes.first.map { " (\($0))" } ?? ""))
        }
        return session
    }

    /// What carries the captured link.
    var medium: LinkMedium {
        ((try? session())?.connections.first?.medium) ?? .ble
    }

    /// The replayed device, DFUKit held to the same bytes in the same writes.
    func transport(profile: Profile?) throws(DFUKitError) -> ReplayTransport {
        ReplayTransport(session: try session(), profile: profile, name: "sim:replay?capture=\(capture)")
    }
}
