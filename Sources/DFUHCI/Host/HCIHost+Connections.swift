import DFUGATT

/// What the host keeps per live connection.
struct ConnectionState {
    /// Unique for the host's lifetime: a controller reuses handles, so a sender that started on
    /// an earlier connection with the same handle must not reach this one.
    let id: UInt64
    var info: HCIConnection
    var reassembler = ACLReassembler()
    let channel: HCIATTChannel
    /// Security Manager PDUs (L2CAP CID 6) while pairing.
    let securityInbox = AsyncBuffer<[UInt8], HCIError>()
}

extension HCIHost {
    /// Connects to a device heard in a scan.
    package func connect(to advertisement: HCIAdvertisement, timeout: Duration) async throws(HCIError) -> HCIATTChannel {
        try await connect(to: advertisement.address, addressType: advertisement.addressType, timeout: timeout)
    }

    /// LE Create Connection with the random own address, waits for the connection (at most
    /// `timeout`; then cancels), then asks for longer data packets and the 2M PHY when the
    /// controller has those features (optional: no answer within `optionalCommandTimeout` counts
    /// as unsupported). Returns the connection's ATT channel.
    package func connect(to address: DeviceAddress, addressType: HCIAddressType,
                        timeout: Duration) async throws(HCIError) -> HCIATTChannel {
        try checkOpen()
        for action in runLifecycle(.connectRequested(address)) {
            if case let .refuse(error) = action { throw error }
            if case let .useExisting(handle) = action {
                guard let existing = connections[handle] else { throw disconnectedError(handle) }
                return existing.channel
            }
        }
        defer { runLifecycle(.connectAttemptEnded) }
        try await stopScan()
        let id = expectEvent { event in
            if case .leConnectionComplete = event { return true }
            return false
        }
        let parameters = configuration.connectionParameters
        do {
            try await execute(LECreateConnectionCommand(
                peerAddressType: addressType, peerAddress: address, ownAddressType: .randomDevice,
                connectionIntervalMin: parameters.intervalMin, connectionIntervalMax: parameters.intervalMax,
                maxLatency: parameters.latency, supervisionTimeout: parameters.supervisionTimeout))
        } catch {
            cancelExpectation(id)
            if case let .commandFailed(_, _, status) = error.kind {
                throw HCIError(.connectionFailed(address: address, status: status), detail: "LE Create Connection refused")
            }
            throw error
        }
        let event: HCIEvent
        do {
            event = try await waitForEvent(id, timeout: timeout,
                                           timeoutError: HCIError(.connectionTimeout(address: address),
                                                                  detail: "within \(timeout.secondsText); is it advertising "
                                                                      + "and connectable?"),
                                           cancellable: true)
        } catch {
            guard case .connectionTimeout = error.kind else { throw error }
            await cancelConnectionAttempt(to: address)
            throw error
        }
        guard case let .leConnectionComplete(complete) = event else {
            throw HCIError(.connectionFailed(address: address, status: .unspecifiedError))
        }
        guard complete.status == .success, let state = connections[complete.handle] else {
            throw HCIError(.connectionFailed(address: address, status: complete.status))
        }
        await negotiateLinkOptions(complete.handle)
        return state.channel
    }

    /// After a timeout: LE Create Connection Cancel, then a short wait for the final Connection
    /// Complete. A connection that completes anyway (Bumble's cancel cancels nothing) is closed.
    private func cancelConnectionAttempt(to address: DeviceAddress) async {
        let id = expectEvent { event in
            if case .leConnectionComplete = event { return true }
            return false
        }
        _ = try? await execute(LECreateConnectionCancelCommand())
        // A cancelled command (Ctrl-C) has under a second to stop: a late connection is then
        // closed by `connectionEstablished`, which sees no attempt under way.
        let late = try? await waitForEvent(id, timeout: Task.isCancelled ? .milliseconds(200) : .seconds(1),
                                           timeoutError: HCIError(.eventTimeout(event: LEConnectionCompleteEvent.name)))
        if case let .leConnectionComplete(complete)? = late, complete.status == .success {
            try? await disconnect(complete.handle)
        }
    }

    /// Disconnects and waits for Disconnection Complete (at most `disconnectTimeout`; after
    /// that the host forgets the connection anyway).
    package func disconnect(_ handle: UInt16, reason: HCIStatus = .remoteUserTerminated) async throws(HCIError) {
        guard connections[handle] != nil else { return }
        runLifecycle(.disconnectRequested(handle: handle))
        let id = expectEvent { event in
            if case let .disconnectionComplete(complete) = event { return complete.handle == handle }
            return false
        }
        do {
            try await execute(DisconnectCommand(handle: handle, reason: reason))
            _ = try await waitForEvent(id, timeout: configuration.disconnectTimeout,
                                       timeoutError: HCIError(.eventTimeout(event: DisconnectionCompleteEvent.name)))
        } catch {
            cancelExpectation(id)
            switch error.kind {
            case .commandFailed, .eventTimeout, .commandTimeout:
                tearDown(handle, reason: .localHostTerminated,
                         error: HCIError(.disconnected(handle: handle, reason: .localHostTerminated),
                                         detail: "disconnect unconfirmed: \(error)"))
            default:
                throw error
            }
        }
    }

    /// Asks the controller for new connection parameters and waits for the update to complete.
    package func updateConnection(_ handle: UInt16, parameters: HCIConnectionParameters) async throws(HCIError) {
        guard connections[handle] != nil else {
            throw HCIError(.disconnected(handle: handle, reason: .unknownConnectionIdentifier))
        }
        let id = expectEvent { event in
            if case let .leConnectionUpdateComplete(update) = event { return update.handle == handle }
            return false
        }
        do {
            try await execute(LEConnectionUpdateCommand(handle: handle, connectionParameters: parameters))
        } catch {
            cancelExpectation(id)
            throw error
        }
        let event = try await waitForEvent(id, timeout: configuration.connectionUpdateTimeout,
                                           timeoutError: HCIError(.eventTimeout(event: LEConnectionUpdateCompleteEvent.name),
                                                                  detail: "connection 0x\(hexWord(handle))"))
        if case let .leConnectionUpdateComplete(update) = event, update.status != .success {
            throw HCIError(.commandFailed(command: LEConnectionUpdateCommand.name, opcode: LEConnectionUpdateCommand.opcode,
                                          status: update.status), detail: "connection 0x\(hexWord(handle))")
        }
    }

    /// The live connection with `handle`, if any.
    package func connection(_ handle: UInt16) -> HCIConnection? { connections[handle]?.info }

    /// Every live connection.
    package var liveConnections: [HCIConnection] { connections.values.map(\.info).sorted { $0.handle < $1.handle } }

    func connectionEstablished(_ complete: LEConnectionCompleteEvent) {
        let info = HCIConnection(handle: complete.handle, peerAddress: complete.peerAddress,
                                 peerAddressType: complete.peerAddressType, interval: complete.interval,
                                 latency: complete.latency, supervisionTimeout: complete.supervisionTimeout)
        runLifecycle(.connectionCompleted(handle: complete.handle, connection: makeIdentifier(),
                                          peer: complete.peerAddress, asCentral: complete.role == .central),
                     opening: info)
    }

    /// Forgets a connection: its queued ACL packets free their credits, its senders and
    /// readers are told.
    func tearDown(_ handle: UInt16, reason: HCIStatus, error: HCIError) {
        runLifecycle(.disconnected(handle: handle, reason: reason, error))
    }
}
