extension ProfileDecoder {
    static let rebootKeys = ["grace", "boot-timeout"]
    static let rebootsKeys = ["when", "grace", "boot-timeout", "address"]

    /// `reboot: { grace: 2s, boot-timeout: 30s }`: the device's reboot timing.
    func decodeRebootTiming(_ node: ProfileNode) -> RebootTiming? {
        guard let map = context.mapping(node, "'reboot'", keys: Self.rebootKeys) else { return nil }
        var timing = RebootTiming()
        if let value = map.optional("grace").flatMap({ context.duration($0, "'reboot.grace'") }) { timing.grace = value }
        if let value = map.optional("boot-timeout").flatMap({ context.duration($0, "'reboot.boot-timeout'") }) {
            timing.bootTimeout = value
        }
        return timing
    }

    /// `reboots: true | false | { when: CONDITION, grace: DURATION, boot-timeout: DURATION, address: same|next }`;
    /// `.some(nil)` for `false`.
    func decodeReboots(_ node: ProfileNode, _ what: String) -> RebootSpec?? {
        if node.mapping == nil {
            guard let value = context.bool(node, what) else { return nil }
            return .some(value ? RebootSpec() : nil)
        }
        guard let map = context.mapping(node, what, keys: Self.rebootsKeys) else { return nil }
        let when = context.optional(map.optional("when")) { context.expression($0, "'when' of \(what)") }
        let grace = context.optional(map.optional("grace")) { context.duration($0, "'grace' of \(what)") }
        let boot = context.optional(map.optional("boot-timeout")) { context.duration($0, "'boot-timeout' of \(what)") }
        let address = map.optional("address")
            .map { context.choice($0, "'address' of \(what)", cases: [ReconnectStep.Address.same, .next]) } ?? .same
        guard let when, let grace, let boot, let address else { return nil }
        return .some(RebootSpec(when: when, grace: grace, bootTimeout: boot, address: address))
    }
}
