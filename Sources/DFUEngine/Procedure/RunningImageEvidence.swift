import DFUProfile

/// Which image a device runs after its update, judged from what it reports (an `observe` step):
/// the value it reports now, the one it reported before the update began, and the one the new
/// image reports. A value that changed shows another image runs; one that did not, with a new
/// image that reports something else, shows the previous image still runs; a new image that
/// reports what the old one did cannot be told apart from it, and the verdict says so instead of
/// claiming either.
struct RunningImageEvidence: Equatable {
    /// Whether the device was seen to reset before the values were read after the update.
    enum Reboot: String {
        /// It dropped the link itself after the rebooting command (or the link was lost while
        /// the reboot was due): it reset.
        case observed
        /// It kept the link past the grace time (the engine dropped it): it did not reset.
        case keptLink = "kept-link"
        /// The link cannot show a reset: a serial line (a UART) or UDP stays up while the device
        /// resets behind it, so a link that stayed up says nothing either way.
        case unobservable
        /// No rebooting command came before this connection.
        case none
    }

    /// The verdict.
    enum Verdict: Equatable {
        /// The new image runs; the sentence says what showed it.
        case newRuns(String)
        /// The previous image runs; the sentence says what showed it. `reset`: whether the
        /// device may have reset (it dropped the link, or no reboot was asked): then its
        /// bootloader may have refused the new image; false when it kept the link (no reset).
        case previousRuns(String, reset: Bool)
        /// The values cannot tell which image runs; the sentence says why.
        case cannotTell(String)
    }

    /// What is compared, for the sentences ("the software version (get_sw_version)").
    var subject: String
    var before: Value?
    var after: Value
    var new: Value?
    var reboot: Reboot

    var verdict: Verdict {
        let now = Self.text(after)
        let was = before.map(Self.text)
        let expected = new.map(Self.text)
        let wasText = was.map { "; it reported \($0) before the update" } ?? "; it was not read before the update"
        if let new, after == new {
            if let before, before == new {
                return .cannotTell("\(subject) is \(now) before and after the update, and the new image reports "
                                   + "\(now) too: it cannot tell which image runs")
            }
            return .newRuns("\(subject) read after the update is \(now), the new image's\(wasText)")
        }
        if let before, after == before {
            if let expected {
                let reset = reboot != .keptLink
                let how = switch reboot {
                case .keptLink: "the device kept the link after the reboot command (it did not reset) and"
                case .observed: "the device dropped the link after the reboot command and"
                case .unobservable: "the link cannot show whether the device reset (it stays up through a reset), and the device"
                case .none: "the device"
                }
                return .previousRuns("\(how) still reports \(now) as \(subject), its previous image's; the new image "
                                     + "reports \(expected)", reset: reset)
            }
            return .cannotTell("\(subject) is \(now) before and after the update, and the package does not say what "
                               + "the new image reports: it cannot tell which image runs")
        }
        if let was {
            let note = expected.map { " (the package says the new image reports \($0): that value is not what it reports)" } ?? ""
            return .newRuns("\(subject) changed from \(was) to \(now) with the update: another image runs\(note)")
        }
        if let expected {
            return .previousRuns("\(subject) read after the update is \(now), not the new image's \(expected) (it was "
                                 + "not read before the update)", reset: reboot != .keptLink)
        }
        return .cannotTell("\(subject) is \(now) after the update; it was not read before and the package does not say "
                           + "what the new image reports: it cannot tell which image runs")
    }

    /// A value as reports quote it: text in quotes, short byte strings whole in hex.
    static func text(_ value: Value) -> String {
        ConditionWitness.render(value)
    }
}
