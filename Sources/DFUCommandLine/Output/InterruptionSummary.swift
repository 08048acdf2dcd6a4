import DFUKit

/// The last line of a command a signal stopped: which signal, and what the device holds, from
/// the engine's report (its `device_holds` stages, else what its error says in words).
enum InterruptionSummary {
    /// "interrupted by Ctrl-C (SIGINT); device holds: unchanged (it still runs its previous firmware)"
    static func text(_ interruption: Interruption, report: FlashReport) -> String {
        "interrupted by \(interruption.name); device holds: " + holds(report)
    }

    /// "interrupted by Ctrl-C (SIGINT) while scanning; device holds: what it held before (nothing was sent)"
    static func text(_ interruption: Interruption, nothingSentWhile step: String) -> String {
        "interrupted by \(interruption.name) while \(step); device holds: what it held before (nothing was sent)"
    }

    static func holds(_ report: FlashReport) -> String {
        switch report.deviceHolds.count {
        case 0:
            return "not known" + (report.error?.deviceState.map { " (\($0))" } ?? "")
        case 1:
            let stage = report.deviceHolds[0]
            return "\(stage.rawValue) (it \(stage.summary))"
        default:
            return report.deviceHolds.map(\.rawValue).joined(separator: " or ")
                + " (a command whose answer was lost may or may not have taken effect)"
        }
    }
}
