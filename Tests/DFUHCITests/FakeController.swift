import DFUBytes
import DFUGATT
import Synchronization
@testable import DFUHCI

/// An in-memory controller speaking real HCI packets (encoded and decoded with the same codecs
/// the host uses), with the knobs Bumble does not have: ACL buffer size and count, automatic
/// Number Of Completed Packets or none, commands left unanswered.
final class FakeController: H4Pipe {
    enum OptionalBehaviour: Sendable { case unanswered, unknownCommand, supported }

    struct Settings: Sendable {
        var aclLength: UInt16 = 27
        var aclCount: UInt8 = 8
        var features: LEFeatures = [.dataPacketLengthExtension, .twoMegabitPHY, .extendedAdvertising]
        var dataLength = OptionalBehaviour.unknownCommand
        var phy = OptionalBehaviour.unanswered
        /// Opcodes that get no answer at all.
        var unanswered: Set<HCIOpcode> = []
        /// Return ACL credits as soon as packets arrive.
        var completePacketsAutomatically = true
        /// Answer LE Create Connection with a connection.
        var connects = true
        var handle: UInt16 = 0x0040
    }

    let name = "fake"
    let incoming: AsyncStream<HCIPacket>
    private let continuation: AsyncStream<HCIPacket>.Continuation

    private struct State {
        var settings: Settings
        var commands: [HCICommandPacket] = []
        var acl: [ACLPacket] = []
        var aclWaiters: [(count: Int, continuation: CheckedContinuation<[ACLPacket], Never>)] = []
        var closed = false
    }

    private let state: Mutex<State>

    init(_ settings: Settings = Settings()) {
        state = Mutex(State(settings: settings))
        (incoming, continuation) = AsyncStream<HCIPacket>.makeStream()
    }

    var failure: HCIError? { nil }

    func close() {
        state.withLock { $0.closed = true }
        continuation.finish()
    }

    func update(_ change: (inout Settings) -> Void) { state.withLock { change(&$0.settings) } }

    var commands: [HCICommandPacket] { state.withLock { $0.commands } }
    var sentACL: [ACLPacket] { state.withLock { $0.acl } }

    func inject(_ packet: HCIPacket) { continuation.yield(packet) }
    func inject(_ event: HCIEvent) { inject(event.packet) }

    /// Waits until the host has sent at least `count` ACL packets.
    func waitForACL(count: Int) async -> [ACLPacket] {
        await withCheckedContinuation { (waiter: CheckedContinuation<[ACLPacket], Never>) in
            let ready = state.withLock { state -> [ACLPacket]? in
                if state.acl.count >= count { return state.acl }
                state.aclWaiters.append((count, waiter))
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }

    func send(_ packet: HCIPacket) async throws(HCIError) {
        switch packet.type {
        case .command:
            guard let command = try? HCICommandPacket(packet: packet) else { return }
            let settings = state.withLock { state -> Settings in
                state.commands.append(command)
                return state.settings
            }
            answer(command, settings)
        case .acl:
            guard let acl = try? ACLPacket(packet: packet) else { return }
            let (settings, ready) = state.withLock { state -> (Settings, [CheckedContinuation<[ACLPacket], Never>]) in
                state.acl.append(acl)
                let ready = state.aclWaiters.filter { $0.count <= state.acl.count }.map(\.continuation)
                state.aclWaiters.removeAll { $0.count <= state.acl.count }
                return (state.settings, ready)
            }
            let all = sentACL
            for waiter in ready { waiter.resume(returning: all) }
            if settings.completePacketsAutomatically {
                inject(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(
                    entries: [.init(handle: acl.handle, completedPackets: 1)])))
            }
        default:
            break
        }
    }

    private func complete(_ opcode: HCIOpcode, _ status: HCIStatus = .success, _ rest: [UInt8] = []) {
        inject(.commandComplete(CommandCompleteEvent(opcode: opcode, status: status, rest: rest)))
    }

    private func commandStatus(_ opcode: HCIOpcode, _ status: HCIStatus = .success) {
        inject(.commandStatus(CommandStatusEvent(status: status, opcode: opcode)))
    }

    private func answer(_ command: HCICommandPacket, _ settings: Settings) {
        let opcode = command.opcode
        guard !settings.unanswered.contains(opcode) else { return }
        switch opcode {
        case ReadLocalVersionCommand.opcode:
            complete(opcode, .success, ReadLocalVersionCommand.ReturnParameters(
                hciVersion: 9, hciSubversion: 0, lmpVersion: 9, companyIdentifier: 0xFFFF, lmpSubversion: 0).encoded)
        case ReadBufferSizeCommand.opcode:
            complete(opcode, .success, ReadBufferSizeCommand.ReturnParameters(
                aclDataPacketLength: 0, synchronousDataPacketLength: 0, totalACLDataPackets: 0,
                totalSynchronousDataPackets: 0).encoded)
        case LEReadBufferSizeCommand.opcode:
            complete(opcode, .success, LEReadBufferSizeCommand.ReturnParameters(
                aclDataPacketLength: settings.aclLength, totalACLDataPackets: settings.aclCount).encoded)
        case LEReadLocalSupportedFeaturesCommand.opcode:
            complete(opcode, .success, LEReadLocalSupportedFeaturesCommand.ReturnParameters(features: settings.features).encoded)
        case LECreateConnectionCommand.opcode:
            commandStatus(opcode)
            guard settings.connects, let create = try? command.decode(as: LECreateConnectionCommand.self) else { return }
            inject(.leConnectionComplete(LEConnectionCompleteEvent(
                status: .success, handle: settings.handle, role: .central, peerAddressType: create.peerAddressType,
                peerAddress: create.peerAddress, interval: create.connectionIntervalMax, latency: 0,
                supervisionTimeout: create.supervisionTimeout)))
        case LECreateConnectionCancelCommand.opcode:
            complete(opcode)
            inject(.leConnectionComplete(LEConnectionCompleteEvent(
                status: .unknownConnectionIdentifier, handle: 0, role: .central, peerAddressType: .publicDevice,
                peerAddress: DeviceAddress(value: 0), interval: 0, latency: 0, supervisionTimeout: 0)))
        case LESetDataLengthCommand.opcode:
            switch settings.dataLength {
            case .unanswered: return
            case .unknownCommand: complete(opcode, .unknownCommand, [0x40, 0x00])
            case .supported:
                complete(opcode, .success, [UInt8(settings.handle & 0xFF), UInt8(settings.handle >> 8)])
                inject(.leDataLengthChange(LEDataLengthChangeEvent(handle: settings.handle, maxTxOctets: 251,
                                                                   maxTxTime: 2120, maxRxOctets: 251, maxRxTime: 2120)))
            }
        case LESetPHYCommand.opcode:
            switch settings.phy {
            case .unanswered: return
            case .unknownCommand: commandStatus(opcode, .unknownCommand)
            case .supported:
                commandStatus(opcode)
                inject(.lePHYUpdateComplete(LEPHYUpdateCompleteEvent(status: .success, handle: settings.handle,
                                                                     txPHY: 2, rxPHY: 2)))
            }
        case LEConnectionUpdateCommand.opcode:
            commandStatus(opcode)
            if let update = try? command.decode(as: LEConnectionUpdateCommand.self) {
                inject(.leConnectionUpdateComplete(LEConnectionUpdateCompleteEvent(
                    status: .success, handle: update.handle, interval: update.connectionParameters.intervalMax,
                    latency: update.connectionParameters.latency,
                    supervisionTimeout: update.connectionParameters.supervisionTimeout)))
            }
        case DisconnectCommand.opcode:
            commandStatus(opcode)
            if let disconnect = try? command.decode(as: DisconnectCommand.self) {
                inject(.disconnectionComplete(DisconnectionCompleteEvent(handle: disconnect.handle,
                                                                         reason: .localHostTerminated)))
            }
        default:
            complete(opcode)
        }
    }
}
