extension HCIConnectionParameters {
    /// For a firmware transfer: a 7.5-15 ms interval (the shortest the spec allows, up to what
    /// phones commonly grant), no latency, 2 s supervision timeout.
    package static let fastTransfer = HCIConnectionParameters(intervalMin: 0x0006, intervalMax: 0x000C,
                                                             latency: 0, supervisionTimeout: 0x00C8)
}

extension HCIHost {
    /// How long to wait, after the controller accepted LE Set Data Length or LE Set PHY, for the
    /// event that says what the link got (a few connection events with the peer). None coming
    /// means nothing changed.
    static let linkUpdateWait: Duration = .seconds(1)

    /// Optional link upgrades after connecting: 251-byte LL payloads, then the 2M PHY, each when
    /// configured and the controller has the feature. Failures only mean the link stays as it
    /// is; what became of each request is kept in the connection's `dataLengthRequest` and
    /// `phyRequest`.
    func negotiateLinkOptions(_ handle: UInt16) async {
        guard let features = controller?.features else { return }
        if configuration.requestDataLength, connections[handle] != nil {
            let outcome = await requestLinkOption(
                features.contains(.dataPacketLengthExtension), LESetDataLengthCommand(handle: handle)) { event in
                    if case let .leDataLengthChange(change) = event { return change.handle == handle }
                    return false
                }
            connections[handle]?.info.dataLengthRequest = outcome
        }
        if configuration.request2MPHY, connections[handle] != nil {
            let outcome = await requestLinkOption(features.contains(.twoMegabitPHY), LESetPHYCommand(handle: handle)) { event in
                if case let .lePHYUpdateComplete(update) = event { return update.handle == handle }
                return false
            }
            connections[handle]?.info.phyRequest = outcome
        }
    }

    /// Sends an optional command and waits up to `linkUpdateWait` for the event `update`
    /// matches (a failed LE PHY Update Complete counts as refused).
    private func requestLinkOption<Command: HCICommand>(_ featured: Bool, _ command: Command,
                                                        update: @escaping @Sendable (HCIEvent) -> Bool) async -> HCILinkOption {
        guard featured else { return .controllerLacksFeature }
        let id = expectEvent(update)
        let accepted: Bool
        do {
            accepted = try await executeOptional(command)
        } catch {
            cancelExpectation(id)
            if case let .commandFailed(_, _, status) = error.kind { return .refused(status) }
            return .commandUnsupported
        }
        guard accepted else {
            cancelExpectation(id)
            return .commandUnsupported
        }
        let event = try? await waitForEvent(id, timeout: Self.linkUpdateWait,
                                            timeoutError: HCIError(.eventTimeout(event: Command.name)))
        if case let .lePHYUpdateComplete(phy)? = event, phy.status != .success { return .refused(phy.status) }
        return .requested
    }
}
