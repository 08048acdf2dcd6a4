import DFUBytes
import DFUGATT

/// A userspace Bluetooth LE host (central role) running one controller over an `H4Pipe`:
/// start-up, scanning, connections, ACL flow control, L2CAP ATT and LE signaling channels.
///
/// All state lives in this actor; packets from the controller are handled one at a time without
/// suspending, so they keep their order. Every command and every awaited event has a deadline.
/// The rules of commands (`CommandFlowMachine`: one outstanding, answers, timeouts), of awaited
/// events (`EventWaitMachine`: expected before caused, matched, timed out), of scanning
/// (`ScanFlowMachine`: on and off, what was heard, waits for a device), of ACL
/// sending (`ACLFlowMachine`: turns, credits) and of the connections' life
/// (`HCIConnectionLifecycle`) are pure state machines this actor drives.
package actor HCIHost {
    package nonisolated let pipe: any H4Pipe
    package nonisolated let configuration: HCIHostConfiguration
    /// The random static own address used to scan and connect.
    package nonisolated let ownAddress: DeviceAddress
    /// Every connection that ends, in order.
    package nonisolated let disconnections: AsyncStream<HCIDisconnection>
    let disconnectionsContinuation: AsyncStream<HCIDisconnection>.Continuation

    /// What the controller reported during `start()`.
    package internal(set) var controller: HCIControllerInfo?
    /// Packets from the controller that could not be decoded (ignored), with the last reason.
    package internal(set) var malformedPacketCount = 0
    package internal(set) var lastMalformedPacket: String?
    /// ACL fragments dropped by reassembly, with the last reason.
    package internal(set) var discardedFragmentCount = 0
    package internal(set) var lastDiscardedFragment: String?
    /// Optional commands found unsupported (by opcode), not sent again.
    package internal(set) var unsupportedOptionalCommands: Set<HCIOpcode> = []

    var closedError: HCIError?
    var readerTask: Task<Void, Never>?
    var nextIdentifier: UInt64 = 0

    // Commands: one outstanding at a time (`CommandFlowMachine`); each caller hears of its
    // turn and its answer through its own buffer.
    var commands = CommandFlowMachine()
    var commandProgress: [UInt64: AsyncBuffer<CommandProgress, Never>] = [:]
    var commandTimers = HostTimers()
    // Awaited events (`EventWaitMachine`); each waiting caller hears its outcome through its
    // own buffer.
    var eventWaits = EventWaitMachine()
    var eventWaitOutcomes: [UInt64: AsyncBuffer<Result<HCIEvent, HCIError>, Never>] = [:]
    var eventWaitTimers = HostTimers()

    // Scanning (`ScanFlowMachine`): on or off, what was heard, callers waiting for a device,
    // each hearing its outcome through its own buffer.
    var scanFlow = ScanFlowMachine()
    var scanWaitOutcomes: [UInt64: AsyncBuffer<HCIAdvertisement?, Never>] = [:]
    var scanWaitTimers = HostTimers()

    // Connections and ACL.
    /// Which connections exist, in which phase, how the ended ones ended; `connections` holds
    /// the live ones' resources.
    var lifecycle = HCIConnectionLifecycle()
    var connections: [UInt16: ConnectionState] = [:]
    /// ACL send turns and credits (sized by `start()`), and where their answers meet the senders.
    var acl = ACLFlowMachine(capacity: 1)
    var aclTurns: [UInt64: AsyncBuffer<Bool, Never>] = [:]
    var aclCredits: [UInt64: AsyncBuffer<Result<Void, HCIError>, Never>] = [:]
    var creditTimers = HostTimers()
    var signalingIdentifier: UInt8 = 0

    package init(pipe: any H4Pipe, configuration: HCIHostConfiguration = HCIHostConfiguration()) {
        self.pipe = pipe
        self.configuration = configuration
        self.ownAddress = configuration.randomAddress ?? HCIHostConfiguration.makeRandomStaticAddress()
        (disconnections, disconnectionsContinuation) = AsyncStream<HCIDisconnection>.makeStream()
    }

    /// Opens `address` (`hci:tcp:HOST:PORT`...), optionally tracing every packet to a btsnoop
    /// file, and starts the controller.
    package static func open(_ address: String, configuration: HCIHostConfiguration = HCIHostConfiguration(),
                            traceFile: String? = nil) async throws(HCIError) -> HCIHost {
        var pipe: any H4Pipe = try H4PipeAddress(parsing: address).open()
        if let traceFile {
            do {
                pipe = BTSnoopTracingPipe(wrapping: pipe, writer: try BTSnoopWriter(path: traceFile))
            } catch {
                pipe.close()
                throw error
            }
        }
        let host = HCIHost(pipe: pipe, configuration: configuration)
        do {
            try await host.start()
        } catch {
            await host.close()
            throw error
        }
        return host
    }

    /// Resets the controller, reads its buffers and features, sets the event masks and the
    /// random own address.
    package func start() async throws(HCIError) {
        startReading()
        try await execute(ResetCommand())
        let version = try ReadLocalVersionCommand.ReturnParameters(
            returnParameters: try await execute(ReadLocalVersionCommand()), command: ReadLocalVersionCommand.self)
        // The shared buffers: only needed when LE has none of its own; LE-only controllers may refuse.
        let shared = try? ReadBufferSizeCommand.ReturnParameters(
            returnParameters: try await execute(ReadBufferSizeCommand()), command: ReadBufferSizeCommand.self)
        let le = try LEReadBufferSizeCommand.ReturnParameters(
            returnParameters: try await execute(LEReadBufferSizeCommand()), command: LEReadBufferSizeCommand.self)
        let features = try LEReadLocalSupportedFeaturesCommand.ReturnParameters(
            returnParameters: try await execute(LEReadLocalSupportedFeaturesCommand()),
            command: LEReadLocalSupportedFeaturesCommand.self).features
        var length = Int(le.aclDataPacketLength)
        var count = Int(le.totalACLDataPackets)
        if length == 0 || count == 0 {
            guard let shared, shared.aclDataPacketLength > 0, shared.totalACLDataPackets > 0 else {
                throw HCIError(.invalidState, detail: "the controller reports no ACL buffers (LE Read Buffer Size and "
                               + "Read Buffer Size both say 0)")
            }
            length = Int(shared.aclDataPacketLength)
            count = Int(shared.totalACLDataPackets)
        }
        acl = ACLFlowMachine(capacity: count)
        controller = HCIControllerInfo(version: version, aclPacketLength: length, aclPacketCount: count, features: features)
        try await execute(SetEventMaskCommand.leCentral)
        try await execute(LESetEventMaskCommand.leCentral)
        try await execute(LESetRandomAddressCommand(address: ownAddress))
    }

    /// Stops reading, fails everything pending and closes the transport.
    package func close() {
        readerTask?.cancel()
        readerTask = nil
        pipe.close()
        shutDown(HCIError(.transportClosed, detail: "\(pipe.name): closed by the host"))
    }

    func startReading() {
        guard readerTask == nil else { return }
        let stream = pipe.incoming
        readerTask = Task { [weak self] in
            for await packet in stream {
                guard let self else { return }
                await self.handle(packet)
            }
            await self?.transportEnded()
        }
    }

    func transportEnded() {
        shutDown(pipe.failure ?? HCIError(.transportClosed, detail: "\(pipe.name): the controller went away"))
    }

    /// Fails every waiter and ends every connection.
    func shutDown(_ error: HCIError) {
        guard closedError == nil else { return }
        closedError = error
        runCommands(.hostClosed(error))
        runEventWaits(.hostClosed(error))
        runACL(.hostClosed)
        runScan(.hostClosed)
        runLifecycle(.hostClosed(error))
        disconnectionsContinuation.finish()
    }

    func checkOpen() throws(HCIError) {
        if let closedError { throw closedError }
    }

    func makeIdentifier() -> UInt64 {
        nextIdentifier += 1
        return nextIdentifier
    }

    // MARK: Incoming packets

    func handle(_ packet: HCIPacket) {
        switch packet.type {
        case .event:
            do {
                handle(try HCIEvent(packet: packet))
            } catch {
                noteMalformed(error.description)
            }
        case .acl:
            do {
                handleACL(try ACLPacket(packet: packet))
            } catch {
                noteMalformed(error.description)
            }
        default:
            break
        }
    }

    func noteMalformed(_ reason: String) {
        malformedPacketCount += 1
        lastMalformedPacket = reason
    }

    func handle(_ event: HCIEvent) {
        switch event {
        case let .numberOfCompletedPackets(completed):
            for entry in completed.entries {
                runACL(.packetsCompleted(handle: entry.handle, count: Int(entry.completedPackets)))
            }
        case let .disconnectionComplete(disconnection) where disconnection.status == .success:
            tearDown(disconnection.handle, reason: disconnection.reason,
                     error: HCIError(.disconnected(handle: disconnection.handle, reason: disconnection.reason)))
        case let .leConnectionComplete(complete) where complete.status == .success:
            connectionEstablished(complete)
        case let .leAdvertisingReport(report):
            for item in report.reports {
                runScan(.reported(HCIAdvertisingReport(
                    address: item.address, addressType: item.addressType, data: item.data,
                    isScanResponse: item.eventType == .scanResponse, isConnectable: item.eventType.isConnectable,
                    rssi: Int(item.rssi))))
            }
        case let .leExtendedAdvertisingReport(report):
            for item in report.reports {
                runScan(.reported(HCIAdvertisingReport(
                    address: item.address, addressType: item.addressType, data: item.data,
                    isScanResponse: item.eventType.contains(.scanResponse),
                    isConnectable: item.eventType.contains(.connectable), rssi: Int(item.rssi))))
            }
        case let .leConnectionUpdateComplete(update) where update.status == .success:
            connections[update.handle]?.info.interval = update.interval
            connections[update.handle]?.info.latency = update.latency
            connections[update.handle]?.info.supervisionTimeout = update.supervisionTimeout
        case let .leDataLengthChange(change):
            connections[change.handle]?.info.maxTxOctets = Int(change.maxTxOctets)
            connections[change.handle]?.info.maxRxOctets = Int(change.maxRxOctets)
            connections[change.handle]?.info.maxTxTime = Int(change.maxTxTime)
            connections[change.handle]?.info.maxRxTime = Int(change.maxRxTime)
        case let .lePHYUpdateComplete(update) where update.status == .success:
            connections[update.handle]?.info.txPHY = update.txPHY
            connections[update.handle]?.info.rxPHY = update.rxPHY
        case .commandComplete, .commandStatus:
            runCommands(.eventReceived(event))
        default:
            break
        }
        runEventWaits(.eventReceived(event))
    }

    // MARK: Commands

    /// Sends `command` and waits for its answer. For Command Complete commands, returns the
    /// return parameters after the status; for Command Status commands, returns [] once the
    /// command started. A status other than success throws `.commandFailed`.
    @discardableResult
    package func execute<Command: HCICommand>(_ command: Command, timeout: Duration? = nil) async throws(HCIError) -> [UInt8] {
        try checkOpen()
        let id = makeIdentifier()
        let progress = AsyncBuffer<CommandProgress, Never>()
        commandProgress[id] = progress
        runCommands(.issued(id, opcode: Command.opcode, name: Command.name, timeout: timeout ?? configuration.commandTimeout))
        // Waited for through cancellation: the controller's command flow must stay in step.
        var heard = await progress.next()
        if case .turn? = heard {
            do {
                try await pipe.send(command.packet)
                runCommands(.sent(id))
            } catch {
                runCommands(.sendFailed(id, error))
            }
            heard = await progress.next()
        }
        guard case let .answered(result)? = heard else {
            throw closedError ?? HCIError(.invalidState, detail: "\(Command.name) got no answer")
        }
        return try result.get()
    }

    /// Feeds one event to the command flow machine and runs its actions (none suspends).
    func runCommands(_ event: CommandFlowEvent) {
        for action in commands.handle(event) {
            switch action {
            case let .grantTurn(id):
                commandProgress[id]?.send(.turn)
            case let .complete(id, result):
                commandProgress.removeValue(forKey: id)?.send(.answered(result))
            case let .startTimer(id, duration):
                commandTimers.start(id, after: duration) { [weak self] in await self?.commandTimerFired(id) }
            case let .cancelTimer(id):
                commandTimers.cancel(id)
            }
        }
    }

    private func commandTimerFired(_ id: UInt64) {
        guard commandTimers.fired(id) else { return }
        runCommands(.timerFired(id))
    }

    /// Runs a command the controller may not support: an unknown-command or unsupported status,
    /// or no answer within `optionalCommandTimeout`, returns false (and the command is not sent
    /// again on this host). Other failures throw.
    func executeOptional<Command: HCICommand>(_ command: Command) async throws(HCIError) -> Bool {
        guard !unsupportedOptionalCommands.contains(Command.opcode) else { return false }
        do {
            try await execute(command, timeout: configuration.optionalCommandTimeout)
            return true
        } catch {
            switch error.kind {
            case .commandTimeout:
                unsupportedOptionalCommands.insert(Command.opcode)
                return false
            case let .commandFailed(_, _, status)
                where [.unknownCommand, .unsupportedFeatureOrParameter, .unsupportedRemoteFeature,
                       .unsupportedLLParameterValue].contains(status):
                unsupportedOptionalCommands.insert(Command.opcode)
                return false
            default:
                throw error
            }
        }
    }
}

/// What a command's caller hears from the command flow: its turn to write, then its answer.
enum CommandProgress: Sendable {
    case turn
    case answered(Result<[UInt8], HCIError>)
}

extension HCICommand {
    static var description: String { "\(name) (\(opcode))" }
}

extension ReadLocalVersionCommand.ReturnParameters {
    init(returnParameters: [UInt8], command: ReadLocalVersionCommand.Type) throws(HCIError) {
        do { try self.init(returnParameters: returnParameters) } catch { throw HCIError(.malformedPacket, detail: error.description) }
    }
}

extension ReadBufferSizeCommand.ReturnParameters {
    init(returnParameters: [UInt8], command: ReadBufferSizeCommand.Type) throws(HCIError) {
        do { try self.init(returnParameters: returnParameters) } catch { throw HCIError(.malformedPacket, detail: error.description) }
    }
}

extension LEReadBufferSizeCommand.ReturnParameters {
    init(returnParameters: [UInt8], command: LEReadBufferSizeCommand.Type) throws(HCIError) {
        do { try self.init(returnParameters: returnParameters) } catch { throw HCIError(.malformedPacket, detail: error.description) }
    }
}

extension LEReadLocalSupportedFeaturesCommand.ReturnParameters {
    init(returnParameters: [UInt8], command: LEReadLocalSupportedFeaturesCommand.Type) throws(HCIError) {
        do { try self.init(returnParameters: returnParameters) } catch { throw HCIError(.malformedPacket, detail: error.description) }
    }
}
