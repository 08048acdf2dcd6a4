import DFUBlueZ
import DFUGATT
import Foundation

/// The test side of the seam: records every call (but poll), fails the calls a test asks to
/// fail, and models descriptors as queues of read results. poll(2) blocks (on a condition) until
/// a watched descriptor has input or is closed, like the kernel's.
final class FakeBlueZSyscalls: BlueZSyscalls, @unchecked Sendable {
    enum Call: Equatable {
        case socket(domain: Int32, type: Int32, protocol: Int32)
        case bind(Int32, [UInt8])
        case connect(Int32, [UInt8])
        case setSocketOption(Int32, level: Int32, option: Int32, [UInt8])
        case getSocketOption(Int32, level: Int32, option: Int32)
        case read(Int32)
        case write(Int32, [UInt8])
        case close(Int32)
        case pipe
        case adapterInfo(Int32, index: UInt16)
    }

    enum Operation: Hashable {
        case socket, bind, connect, setSocketOption, getSocketOption, read, write, poll, pipe, adapterInfo
    }

    private let condition = NSCondition()
    private var recorded: [Call] = []
    private var failures: [Operation: [SystemErrno]] = [:]
    private var inputs: [Int32: [Result<[UInt8], SystemErrno>]] = [:]
    private var openDescriptors: Set<Int32> = []
    private var pipes: [Int32: Int32] = [:]
    private var nextDescriptor: Int32 = 10
    private var adapters: [UInt16: BlueZAdapterInfo]
    private var options: [Int32: [UInt8]]
    /// Management event packets (Device Found...) a scan reads once Start Discovery succeeded.
    private var advertisingPackets: [[UInt8]] = []
    /// How the next Start Discovery commands are answered (then Success).
    private var startDiscoveryStatuses: [MgmtStatus] = []
    /// Sockets bound to the management channel: the fake kernel answers their commands.
    private var controlSockets: Set<Int32> = []
    /// The fake kernel takes management commands without ever answering.
    private var managementSilent = false
    /// Answers a PDU written to a socket (an ATT server).
    private var responder: (@Sendable ([UInt8]) -> [UInt8]?)?

    init(adapters: [BlueZAdapterInfo] = [], options: [Int32: [UInt8]] = [:]) {
        self.adapters = Dictionary(uniqueKeysWithValues: adapters.map { ($0.index, $0) })
        self.options = options
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }

    // MARK: - Script

    var calls: [Call] { locked { recorded } }

    /// The calls but reads (whose number depends on timing).
    var callsWithoutReads: [Call] {
        calls.filter { if case .read = $0 { return false } else { return true } }
    }

    /// The next `operation` fails with each of `errors` in turn.
    func fail(_ operation: Operation, with errors: SystemErrno...) {
        locked { failures[operation, default: []].append(contentsOf: errors) }
    }

    /// Makes `descriptor` readable with `results`, in order and at once (an empty packet is end
    /// of stream): the reader thread runs meanwhile, so results that must be queued together
    /// (an error with the packet behind it) are delivered in one call.
    func deliver(_ results: Result<[UInt8], SystemErrno>..., to descriptor: Int32) {
        locked { inputs[descriptor, default: []].append(contentsOf: results) }
    }

    /// What getsockopt(2) returns for `option` from now on.
    func setOption(_ option: Int32, _ value: [UInt8]) { locked { options[option] = value } }
    func setAdvertisingPackets(_ packets: [[UInt8]]) { locked { advertisingPackets = packets } }
    func answerStartDiscovery(with statuses: MgmtStatus...) { locked { startDiscoveryStatuses += statuses } }
    func silenceManagement() { locked { managementSilent = true } }
    func setResponder(_ responder: @escaping @Sendable ([UInt8]) -> [UInt8]?) { locked { self.responder = responder } }
    func isOpen(_ descriptor: Int32) -> Bool { locked { openDescriptors.contains(descriptor) } }

    /// Waits (up to 2 s) until `predicate` holds for the calls.
    func waitForCalls(_ predicate: ([Call]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(2)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(recorded) {
            if !condition.wait(until: deadline) { return predicate(recorded) }
        }
        return true
    }

    private func failure(_ operation: Operation) -> SystemErrno? {
        guard var queue = failures[operation], !queue.isEmpty else { return nil }
        let first = queue.removeFirst()
        failures[operation] = queue
        return first
    }

    private func newDescriptor() -> Int32 {
        defer { nextDescriptor += 1 }
        openDescriptors.insert(nextDescriptor)
        return nextDescriptor
    }

    // MARK: - BlueZSyscalls

    func socket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, SystemErrno> {
        locked {
            recorded.append(.socket(domain: domain, type: type, protocol: `protocol`))
            if let error = failure(.socket) { return .failure(error) }
            return .success(newDescriptor())
        }
    }

    func bind(_ socket: Int32, address: [UInt8]) -> Result<Void, SystemErrno> {
        locked {
            recorded.append(.bind(socket, address))
            if let error = failure(.bind) { return .failure(error) }
            if address == HCISocketAddress(index: 0xFFFF, channel: BlueZConstants.hciChannelControl).bytes {
                controlSockets.insert(socket)
            }
            return .success(())
        }
    }

    func connect(_ socket: Int32, address: [UInt8]) -> Result<Void, SystemErrno> {
        locked {
            recorded.append(.connect(socket, address))
            return failure(.connect).map { .failure($0) } ?? .success(())
        }
    }

    func setSocketOption(_ socket: Int32, level: Int32, option: Int32, value: [UInt8]) -> Result<Void, SystemErrno> {
        locked {
            recorded.append(.setSocketOption(socket, level: level, option: option, value))
            return failure(.setSocketOption).map { .failure($0) } ?? .success(())
        }
    }

    func getSocketOption(_ socket: Int32, level: Int32, option: Int32, length: Int) -> Result<[UInt8], SystemErrno> {
        locked {
            recorded.append(.getSocketOption(socket, level: level, option: option))
            if let error = failure(.getSocketOption) { return .failure(error) }
            return options[option].map { .success(Array($0.prefix(length))) } ?? .failure(.protocolNotAvailable)
        }
    }

    func read(_ descriptor: Int32, maximumLength: Int) -> Result<[UInt8], SystemErrno> {
        locked {
            recorded.append(.read(descriptor))
            if let error = failure(.read) { return .failure(error) }
            guard var queue = inputs[descriptor], !queue.isEmpty else { return .failure(.wouldBlock) }
            let first = queue.removeFirst()
            inputs[descriptor] = queue
            return first.map { Array($0.prefix(maximumLength)) }
        }
    }

    func write(_ descriptor: Int32, bytes: [UInt8]) -> Result<Int, SystemErrno> {
        locked {
            recorded.append(.write(descriptor, bytes))
            if let error = failure(.write) { return .failure(error) }
            if let readEnd = pipes[descriptor] {
                inputs[readEnd, default: []].append(.success(bytes))
            } else if controlSockets.contains(descriptor), !managementSilent {
                inputs[descriptor, default: []].append(contentsOf: managementAnswer(to: bytes).map { .success($0) })
            } else if let answer = responder?(bytes) {
                inputs[descriptor, default: []].append(.success(answer))
            }
            return .success(bytes.count)
        }
    }

    func poll(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> Result<[Int16], SystemErrno> {
        // (NSCondition cannot wait until Date.distantFuture on Linux: a day is forever here.)
        let deadline = Date().addingTimeInterval(timeoutMilliseconds < 0 ? 86_400 : Double(timeoutMilliseconds) / 1000)
        condition.lock()
        defer { condition.unlock() }
        if let error = failure(.poll) { return .failure(error) }
        while true {
            let events = descriptors.map { descriptor -> Int16 in
                if !openDescriptors.contains(descriptor) { return 0x20 } // POLLNVAL
                return inputs[descriptor]?.isEmpty == false ? 0x01 : 0 // POLLIN
            }
            if events.contains(where: { $0 != 0 }) { return .success(events) }
            if !condition.wait(until: deadline) { return .success(events) }
        }
    }

    func close(_ descriptor: Int32) {
        locked {
            recorded.append(.close(descriptor))
            openDescriptors.remove(descriptor)
        }
    }

    func pipe() -> Result<(read: Int32, write: Int32), SystemErrno> {
        locked {
            recorded.append(.pipe)
            if let error = failure(.pipe) { return .failure(error) }
            let readEnd = newDescriptor()
            let writeEnd = newDescriptor()
            pipes[writeEnd] = readEnd
            return .success((readEnd, writeEnd))
        }
    }

    func adapterInfo(_ socket: Int32, index: UInt16) -> Result<BlueZAdapterInfo, SystemErrno> {
        locked {
            recorded.append(.adapterInfo(socket, index: index))
            if let error = failure(.adapterInfo) { return .failure(error) }
            return adapters[index].map { .success($0) } ?? .failure(.noDevice)
        }
    }

    /// What the kernel answers a management command with: Command Complete (the status queued
    /// by `answerStartDiscovery`, else Success) and, after a started discovery, the advertising
    /// packets.
    private func managementAnswer(to command: [UInt8]) -> [[UInt8]] {
        guard command.count >= 6 else { return [] }
        let code = UInt16(command[0]) | UInt16(command[1]) << 8
        let index = UInt16(command[2]) | UInt16(command[3]) << 8
        let parameters = Array(command[6...])
        switch code {
        case MgmtCommand.startDiscoveryCode:
            let status = startDiscoveryStatuses.isEmpty ? .success : startDiscoveryStatuses.removeFirst()
            let answer = Self.commandComplete(code, index: index, status: status, returning: parameters)
            return [answer] + (status == .success || status == .busy ? advertisingPackets : [])
        default:
            return [Self.commandComplete(code, index: index, status: .success, returning: parameters)]
        }
    }

    static func managementEvent(_ code: UInt16, index: UInt16 = 0, _ parameters: [UInt8]) -> [UInt8] {
        [UInt8(code & 0xFF), UInt8(code >> 8), UInt8(index & 0xFF), UInt8(index >> 8),
         UInt8(parameters.count & 0xFF), UInt8(parameters.count >> 8)] + parameters
    }

    static func commandComplete(_ code: UInt16, index: UInt16 = 0, status: MgmtStatus, returning: [UInt8] = []) -> [UInt8] {
        managementEvent(0x0001, index: index, [UInt8(code & 0xFF), UInt8(code >> 8), status.rawValue] + returning)
    }
}
