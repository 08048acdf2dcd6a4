/// What became of an optional link upgrade the host asked the controller for after connecting
/// (LE Set Data Length, LE Set PHY), so a report can say why a link stayed as it was.
package enum HCILinkOption: Sendable, Hashable {
    /// The host's configuration does not ask for it.
    case notAsked
    /// The controller's LE features lack it.
    case controllerLacksFeature
    /// The controller did not take the command: Unknown Command, an unsupported-feature status,
    /// or no answer within `optionalCommandTimeout` (Bumble's controller never answers LE Set PHY).
    case commandUnsupported
    /// The command, or the procedure with the peer, failed with this status.
    case refused(HCIStatus)
    /// Accepted; the connection's values are what the controller then reported.
    case requested

    /// Why the upgrade was not had, for a person; nil when it was asked and accepted (or not asked).
    package func reason(_ what: String, command: String) -> String? {
        switch self {
        case .notAsked, .requested: return nil
        case .controllerLacksFeature: return "the controller has no \(what) feature"
        case .commandUnsupported: return "the controller did not take \(command) (unknown, unsupported or unanswered)"
        case let .refused(status): return "\(command) refused: \(status)"
        }
    }
}
