import DFUEngine
import DFUSimulator

/// The time of each phase of one flash session on the simulated clock, from its events:
/// scan (start to `connecting`), connect (to `connected`), discovery (from `connected` to
/// `transferStarted`: discovery, subscriptions and the commands before the data), transfer
/// (to the last `progress`), reboot (from each `rebooting` to the next `connected`) and
/// confirm (after the data: verification, activation, the confirmation after the reboot). A
/// phase the session does not go through is absent; the phases add up to the session.
final class SessionPhases {
    private let world: SimulatedWorld
    private(set) var marks: [(event: String, at: Double)] = []

    init(world: SimulatedWorld) {
        self.world = world
    }

    func record(_ event: FlashEvent) {
        let now = Double(world.now / .microseconds(1)) / 1e6
        switch event {
        case .scanning: marks.append(("scanning", now))
        case .connecting: marks.append(("connecting", now))
        case .connected: marks.append(("connected", now))
        case .transferStarted: marks.append(("transfer", now))
        case .progress: marks.append(("progress", now))
        case .rebooting: marks.append(("rebooting", now))
        default: break
        }
    }

    /// Phase name -> seconds, for a session that ended at `end` seconds: the time between two
    /// marks goes to the phase the first one opened. After a `progress` it goes to confirm,
    /// unless another `progress` follows (then it was transfer time).
    func phases(end: Double) -> [String: Double] {
        var result: [String: Double] = [:]
        guard var previous = marks.first?.at else { return result }
        var phase = "scan"
        var transferred = false
        for mark in marks.dropFirst() + [("end", end)] {
            let target = mark.event == "progress" && phase == "confirm" && transferred ? "transfer" : phase
            result[target, default: 0] += mark.at - previous
            previous = mark.at
            switch mark.event {
            case "connecting": phase = "connect"
            case "connected": phase = transferred ? "confirm" : "discovery"
            case "transfer": phase = "transfer"
            case "progress":
                transferred = true
                phase = "confirm"
            case "rebooting": phase = "reboot"
            default: break
            }
        }
        return result
    }
}
