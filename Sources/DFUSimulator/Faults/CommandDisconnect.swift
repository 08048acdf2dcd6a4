/// `fault=disconnect-on:COMMAND[:N]` and `fault=disconnect-after-command:COMMAND[:N]`: the
/// link drops when the device receives the N-th request (1-based, counted over the device's
/// life) of a command. Command names are the device's own (`SimulatedDeviceCatalog.commandNames`),
/// the profile's command names where a request maps to one.
public struct CommandDisconnect: Sendable, Hashable, CustomStringConvertible {
    /// When the link drops relative to the request; the raw value is the `fault=` spelling.
    public enum Moment: String, Sendable, Hashable {
        /// The request arrives and the link drops: the device neither processes nor answers it.
        case beforeProcessing = "disconnect-on"
        /// The device processes the request (its state changes), then the link drops before
        /// the answer goes out: the client cannot tell whether the command took effect.
        case afterProcessing = "disconnect-after-command"
    }

    /// The device's name of the command.
    public var command: String
    /// Which request of it (1-based, over the device's life).
    public var occurrence: Int
    package var moment: Moment

    /// A disconnect on the `occurrence`-th request of `command`, at `moment`.
    public init(command: String, occurrence: Int = 1, moment: Moment) {
        self.command = command
        self.occurrence = occurrence
        self.moment = moment
    }

    public var description: String { "\(moment.rawValue):\(command):\(occurrence)" }

    /// The reason the link reports.
    var reason: String {
        switch moment {
        case .beforeProcessing:
            return "simulated fault: disconnect on \(command) #\(occurrence), before the device processed it"
        case .afterProcessing:
            return "simulated fault: disconnect after \(command) #\(occurrence) was processed, before its answer"
        }
    }
}

/// A device's bookkeeping for its `CommandDisconnect` faults: it names every request it
/// receives (a request may answer to several names, e.g. `create` and `create_data`), and
/// learns whether one of them fires.
struct CommandDisconnectInjector: Sendable, Equatable {
    private let faults: [CommandDisconnect]
    private var counts: [Int]
    /// The names of every request received, in order (what `disconnect-on` can name).
    private(set) var log: [[String]] = []

    init(_ faults: [CommandDisconnect]) {
        self.faults = faults
        counts = Array(repeating: 0, count: faults.count)
    }

    /// Handles a request answering to `names` that arrived at `time`: `process` handles it and
    /// returns the device's outputs, unless a fault fires on it; then the link is lost before
    /// `process` runs, or right after it ran (its outputs are not sent).
    mutating func handle(_ names: [String], at time: Duration,
                         _ process: () -> [PeripheralOutput]) -> [PeripheralOutput] {
        guard let fault = arrived(names) else { return process() }
        if fault.moment == .afterProcessing { _ = process() }
        return [.linkLoss(reason: fault.reason, at: time)]
    }

    /// A request answering to `names` arrived: the fault that fires on it, if any. Every
    /// matching fault counts it.
    private mutating func arrived(_ names: [String]) -> CommandDisconnect? {
        log.append(names)
        var fired: CommandDisconnect?
        for index in faults.indices where names.contains(faults[index].command) {
            counts[index] += 1
            if counts[index] == faults[index].occurrence, fired == nil { fired = faults[index] }
        }
        return fired
    }
}

/// A simulated device that lists the requests it received by their command names, for fault
/// matrices that place a `disconnect-on:COMMAND:N` at every request of a run.
public protocol CommandLogging: SimulatedPeripheral {
    /// Each request's names (a request may answer to several: `create` and `create_data`).
    var receivedCommands: [[String]] { get }
}
