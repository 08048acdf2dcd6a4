import DFUKit
import Foundation
import Synchronization

/// The live view of `dfukit batch run`: one line per concurrency slot, redrawn in place on a
/// terminal; plain log lines (starts, results, retries) otherwise. With several radios each line
/// and each start names its radio. Called from several tasks.
final class BatchProgressView: Sendable {
    private struct State {
        var lines: [String]
        /// What each slot's line starts with: `slot 2`, or with several radios `hci1 slot 1`.
        var labels: [String]
        var drawn = 0
        var lastPercent: [String: Int] = [:]
    }

    private let console: any Console
    private let interactive: Bool
    private let state: Mutex<State>
    /// Slots per radio; nil with one radio (its name is then not shown).
    private let slotsPerRadio: Int?

    /// A view of `slots` slots in all, over `radios` radios (each with `slots / radios`).
    init(console: any Console, slots: Int, radios: Int = 1) {
        self.console = console
        self.interactive = console.isInteractive
        let count = max(1, slots)
        self.slotsPerRadio = radios > 1 ? max(1, count / radios) : nil
        self.state = Mutex(State(lines: Array(repeating: "", count: count),
                                 labels: (0..<count).map { "slot \($0 + 1)" }))
    }

    func handle(_ event: BatchEvent) {
        state.withLock { state in
            switch event {
            case let .deviceStarted(address, attempt, slot, radio):
                let index = slot % state.lines.count
                let on = slotsPerRadio == nil ? nil : radio
                if let on, let slotsPerRadio { state.labels[index] = "\(on) slot \(slot % slotsPerRadio + 1)" }
                state.lines[index] = "\(state.labels[index]): \(address) attempt \(attempt): connecting"
                state.lastPercent[address.description] = -1
                if !interactive { console.error("\(address): attempt \(attempt) started" + (on.map { " on \($0)" } ?? "")) }
            case let .progress(address, done, total):
                guard total > 0 else { return }
                let percent = done * 100 / total
                guard percent != state.lastPercent[address.description] else { return }
                state.lastPercent[address.description] = percent
                if let slot = state.lines.firstIndex(where: { $0.contains(address.description) }) {
                    let filled = percent / 5
                    state.lines[slot] = "\(state.labels[slot]): \(address) [" + String(repeating: "#", count: filled)
                        + String(repeating: "-", count: 20 - filled) + "] \(percent)%"
                }
            case .devicePhase, .deviceLink:
                // Shown by the station dashboard (the ledger's live rows), not here.
                return
            case let .deviceFinished(address, succeeded, attempt, seconds, error):
                let text = succeeded
                    ? "\(address): done (attempt \(attempt), \(String(format1: seconds)) s)"
                    : "\(address): attempt \(attempt) failed: \(error ?? "unknown error")"
                log(text, state: &state)
            case let .deviceSkipped(address, reason):
                log("\(address): skipped: \(reason)", state: &state)
            case let .retryScheduled(address, attempt, after, _):
                log("\(address): attempt \(attempt) in \(after)", state: &state)
            case let .stopping(reason):
                log("stopping: \(reason)", state: &state)
            case let .claimLost(address, reason):
                log("\(address): claim lost, attempt stopped: \(reason)", state: &state)
            case let .lineHalted(halt, recordedHere, waiting):
                var text = "HALTED: \(halt)" + (recordedHere ? ", after this station's attempt" : "")
                for attempt in halt.attempts { text += "\n  \(attempt)" }
                text += waiting
                    ? "\nno new device starts until an operator resumes the line: dfukit station resume --ledger URL "
                        + "--line \(halt.line) --operator NAME --reason TEXT (waiting, polling the ledger)"
                    : "\nno new device starts; resume it with: dfukit station resume --ledger URL --line \(halt.line)"
                log(text, state: &state)
            case let .lineResumed(line):
                log("line \(line) resumed: starting new devices again", state: &state)
            case let .deviceQuarantined(address, failures):
                log("\(address): QUARANTINED after \(failures) failed attempt(s): no station claims it until "
                    + "'dfukit station release --ledger URL \(address)'", state: &state)
            case let .radioFailed(radio, reason, untried):
                var text = "\(radio): radio FAILED: \(reason); it starts no more devices, the other radios go on"
                if !untried.isEmpty {
                    text += "\n  \(untried.count) device(s) waiting on it were not tried (not done: run the line again "
                        + "once the radio is back): " + untried.map(\.description).joined(separator: ", ")
                }
                log(text, state: &state)
            case let .ledgerWriteFailed(address, operation, error):
                log("\(address): NOT CONFIRMED by the ledger: \(operation): \(error)", state: &state)
            }
            if interactive { redraw(&state) }
        }
    }

    func finish() {
        state.withLock { state in
            if interactive, state.drawn > 0 {
                console.errorInPlace(String(repeating: "\u{1B}[1A\u{1B}[2K", count: state.drawn))
                state.drawn = 0
            }
        }
    }

    private func log(_ text: String, state: inout State) {
        if interactive {
            // Clear the live lines, print the log line above them; they are drawn again after.
            console.errorInPlace(String(repeating: "\u{1B}[1A\u{1B}[2K", count: state.drawn))
            state.drawn = 0
        }
        console.error(text)
    }

    private func redraw(_ state: inout State) {
        var text = String(repeating: "\u{1B}[1A\u{1B}[2K", count: state.drawn)
        for line in state.lines { text += line + "\n" }
        console.errorInPlace(text)
        state.drawn = state.lines.count
    }
}
