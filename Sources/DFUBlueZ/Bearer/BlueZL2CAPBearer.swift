#if canImport(Glibc)
import Glibc
#endif
import DFUATT
import DFUGATT
import Foundation
import Synchronization

/// An `ATTBearer` on a kernel L2CAP socket: SOCK_SEQPACKET on the LE ATT fixed channel (CID 4),
/// bound to the adapter's address, connected to one peer. The kernel does the LE connection,
/// fragmentation and reassembly: each read(2) is one ATT PDU, each write(2) sends one.
///
/// A dedicated reader thread blocks in poll(2) on the socket and a wake-up pipe (never a
/// cooperative-pool thread); `close()` wakes it through the pipe. Every syscall goes through
/// `BlueZSyscalls`.
public final class BlueZL2CAPBearer: ATTBearer {
    /// The ATT_MTU this side proposes: the option asked for, capped by what the socket can receive.
    public let mtu: Int
    package let peer: DeviceAddress
    /// The adapter the socket is bound to ("hci0").
    public let adapter: String

    private let syscalls: any BlueZSyscalls
    /// PDUs from the reader thread, finished with why the link ended.
    private let inbox = AsyncBuffer<[UInt8], GATTError>()
    private let state: Mutex<State>
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Confirms Just Works pairing with the peer while the link is open (encrypted links only).
    private let agent: BlueZPairingAgent?

    private struct State {
        var descriptor: Int32
        var closed = false
    }

    /// The largest ATT_MTU (Core spec Vol 3, Part F, 3.2.8).
    package static let maximumMTU = 517

    /// What `open` does, for logs and tests.
    public struct Options: Sendable, Hashable {
        /// BT_SECURITY to require before ATT traffic (nil: leave the kernel's default, low).
        public var security: BlueZSecurityLevel?
        /// The ATT_MTU to propose (capped by the socket's BT_RCVMTU when the kernel reports it).
        public var mtu: Int
        /// How long connect(2) may take (SO_SNDTIMEO, which the kernel uses for L2CAP connects).
        package var connectTimeout: Duration

        /// Options with a security level (nil: the kernel's default), an MTU to propose (23...517) and
        /// a connect timeout.
        public init(security: BlueZSecurityLevel? = nil, mtu: Int = 517, connectTimeout: Duration = .seconds(20)) {
            self.security = security
            self.mtu = mtu
            self.connectTimeout = connectTimeout
        }
    }

    /// Opens and connects the socket (blocking: run it off the cooperative pool, as
    /// `connect(...)` does) and starts the reader thread.
    ///
    /// socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_CLOEXEC, BTPROTO_L2CAP); bind to the
    /// adapter's address (LE public, CID 4); SO_SNDTIMEO; BT_SECURITY if asked; connect to the
    /// peer (CID 4, its address type); BT_RCVMTU.
    public static func open(adapter: BlueZAdapterInfo, peer: DeviceAddress, peerType: BlueZPeerAddressType,
                            options: Options = Options(),
                            syscalls: any BlueZSyscalls = SystemBlueZSyscalls()) throws(BlueZError) -> BlueZL2CAPBearer {
        func fail(_ operation: String, _ error: SystemErrno) -> BlueZError {
            BlueZError(operation, errno: error, adapter: adapter.name, address: peer)
        }
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor: Int32
        switch syscalls.socket(domain: BlueZConstants.addressFamily, type: type, protocol: BlueZConstants.protocolL2CAP) {
        case let .success(opened): descriptor = opened
        case let .failure(error): throw fail("socket", error)
        }
        // An encrypted link means pairing, which the kernel asks user space to confirm.
        let agent = (options.security?.rawValue ?? 0) >= BlueZSecurityLevel.medium.rawValue
            ? BlueZPairingAgent(adapter: adapter.index, peer: peer, syscalls: syscalls) : nil
        do throws(BlueZError) {
            let local = L2CAPSocketAddress(address: adapter.address, addressType: BlueZConstants.addressTypeLEPublic)
            if case let .failure(error) = syscalls.bind(descriptor, address: local.bytes) { throw fail("bind", error) }
            let timeout = timevalBytes(options.connectTimeout)
            if case let .failure(error) = syscalls.setSocketOption(descriptor, level: SOL_SOCKET, option: SO_SNDTIMEO,
                                                                   value: timeout) {
                throw fail("setsockopt SO_SNDTIMEO", error)
            }
            if let security = options.security {
                if case let .failure(error) = syscalls.setSocketOption(descriptor, level: BlueZConstants.solBluetooth,
                                                                       option: BlueZConstants.btSecurity,
                                                                       value: securityOptionBytes(level: security.rawValue)) {
                    throw fail("setsockopt BT_SECURITY \(security)", error)
                }
            }
            let remote = L2CAPSocketAddress(address: peer, addressType: peerType.rawValue)
            connecting: while true {
                switch syscalls.connect(descriptor, address: remote.bytes) {
                case .success: break connecting
                case .failure(.interrupted): continue
                case .failure(.inProgress):
                    // SO_SNDTIMEO ran out while the kernel was still connecting.
                    throw fail("connect (\(peerType) address, no answer within \(options.connectTimeout.secondsText))", .timedOut)
                case let .failure(error):
                    let pairing = agent?.failure.map { ", pairing failed: \($0)" } ?? ""
                    throw fail("connect (\(peerType) address\(pairing))", error)
                }
            }
            if let security = options.security, security.rawValue > BlueZSecurityLevel.low.rawValue {
                try waitForSecurity(security, on: descriptor, within: options.connectTimeout, agent: agent,
                                    syscalls: syscalls, fail: fail)
            }
            var mtu = min(max(options.mtu, 23), maximumMTU)
            if case let .success(value) = syscalls.getSocketOption(descriptor, level: BlueZConstants.solBluetooth,
                                                                   option: BlueZConstants.btReceiveMTU, length: 2),
               value.count == 2 {
                let kernelMTU = Int(value[0]) | Int(value[1]) << 8
                if kernelMTU >= 23 { mtu = min(mtu, kernelMTU) }
            }
            let wake: (read: Int32, write: Int32)
            switch syscalls.pipe() {
            case let .success(ends): wake = ends
            case let .failure(error): throw fail("pipe", error)
            }
            return BlueZL2CAPBearer(descriptor: descriptor, wake: wake, mtu: mtu, peer: peer, adapter: adapter.name,
                                    agent: agent, syscalls: syscalls)
        } catch {
            syscalls.close(descriptor)
            agent?.stop()
            throw error
        }
    }

    /// Waits until the link reaches `level`: the kernel may report an LE ATT socket connected
    /// while it is still pairing, and a write before encryption would be refused (Insufficient
    /// Encryption). Once connected, BT_SECURITY reads back the link's current level. A kernel
    /// that does not report it is not waited for.
    private static func waitForSecurity(_ level: BlueZSecurityLevel, on descriptor: Int32, within limit: Duration,
                                        agent: BlueZPairingAgent?, syscalls: any BlueZSyscalls,
                                        fail: (String, SystemErrno) -> BlueZError) throws(BlueZError) {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            guard case let .success(value) = syscalls.getSocketOption(descriptor, level: BlueZConstants.solBluetooth,
                                                                      option: BlueZConstants.btSecurity, length: 2),
                  let current = value.first else { return }
            if current >= level.rawValue { return }
            if let failure = agent?.failure {
                var error = fail("pairing for security \(level)", .connectionRefused)
                error.note = "pairing failed: \(failure); does the device accept Just Works pairing, or does it "
                    + "hold an old bond with this adapter (remove it on both sides)?"
                throw error
            }
            guard clock.now < deadline else {
                var error = fail("pairing for security \(level)", .timedOut)
                error.note = "the link stayed at security \(BlueZSecurityLevel(rawValue: current)) for "
                    + "\(limit.secondsText): pairing was not confirmed (DFUKit confirms Just Works only, and needs "
                    + "CAP_NET_ADMIN for it; otherwise bluetoothd's agent must)"
                throw error
            }
            usleep(20_000)
        }
    }

    /// `open` on a dedicated thread, so a connect that takes seconds blocks no Swift task thread.
    public static func connect(adapter: BlueZAdapterInfo, peer: DeviceAddress, peerType: BlueZPeerAddressType,
                               options: Options = Options(),
                               syscalls: any BlueZSyscalls = SystemBlueZSyscalls()) async throws(BlueZError) -> BlueZL2CAPBearer {
        try await BlockingCall.run("DFUBlueZ connect \(peer)",
                                   cancelledError: { BlueZError("connect", errno: .interrupted, adapter: adapter.name,
                                                                address: peer) },
                                   abandoned: { bearer in Task { await bearer.close() } }) { () throws(BlueZError) -> BlueZL2CAPBearer in
            try open(adapter: adapter, peer: peer, peerType: peerType, options: options, syscalls: syscalls)
        }
    }

    private init(descriptor: Int32, wake: (read: Int32, write: Int32), mtu: Int, peer: DeviceAddress, adapter: String,
                 agent: BlueZPairingAgent?, syscalls: any BlueZSyscalls) {
        self.agent = agent
        self.mtu = mtu
        self.peer = peer
        self.adapter = adapter
        self.syscalls = syscalls
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
        self.state = Mutex(State(descriptor: descriptor))
        let thread = Thread { [self] in
            self.readLoop(descriptor: descriptor)
        }
        thread.name = "DFUBlueZ reader \(peer)"
        thread.start()
    }

    /// Writes one ATT PDU to the socket. Throws `.disconnected` once the link is closed or dropped.
    public func send(_ pdu: [UInt8]) async throws(GATTError) {
        let failure: GATTError? = state.withLock { state in
            guard !state.closed else { return inbox.failure ?? closedError }
            while true {
                switch syscalls.write(state.descriptor, bytes: pdu) {
                case .success: return nil
                case .failure(.interrupted), .failure(.wouldBlock): continue
                case let .failure(error):
                    return BlueZError("write", errno: error, adapter: adapter, address: peer).gattError
                }
            }
        }
        if let failure { throw failure }
    }

    /// getsockopt(2) on the connection's socket: nil once it closed, or when the kernel refuses.
    public func socketOption(level: Int32, option: Int32, length: Int) -> [UInt8]? {
        state.withLock { state -> [UInt8]? in
            guard !state.closed,
                  case let .success(value) = syscalls.getSocketOption(state.descriptor, level: level, option: option,
                                                                      length: length) else { return nil }
            return value
        }
    }

    /// The next ATT PDU from the peer, in arrival order. Throws `.disconnected` once the link ends.
    public func receive() async throws(GATTError) -> [UInt8] {
        if let pdu = try await inbox.next() { return pdu }
        throw inbox.failure ?? closedError  // every receive after the end says why
    }

    /// Closes the socket and wakes the reader thread; later sends and receives fail.
    public func close() async {
        let wake = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.closed = true
            return true
        }
        guard wake else { return }
        inbox.finish(throwing: closedError)
        _ = syscalls.write(wakeWrite, bytes: [1])
    }

    private var closedError: GATTError {
        GATTError(.disconnected, address: peer.description, detail: "the bearer was closed")
    }

    /// Delivers the PDUs still queued on the socket after an error, without blocking.
    private func drainQueued(_ descriptor: Int32) {
        for _ in 0..<256 {
            guard case let .success(events) = syscalls.poll([descriptor], timeoutMilliseconds: 0),
                  let ready = events.first, ready != 0,
                  case let .success(pdu) = syscalls.read(descriptor, maximumLength: Self.maximumMTU + 8),
                  !pdu.isEmpty else { return }
            inbox.send(pdu)
        }
    }

    private func readLoop(descriptor: Int32) {
        var end: GATTError?
        loop: while true {
            let events: [Int16]
            switch syscalls.poll([descriptor, wakeRead], timeoutMilliseconds: -1) {
            case let .success(ready): events = ready
            case .failure(.interrupted): continue
            case let .failure(error):
                end = BlueZError("poll", errno: error, adapter: adapter, address: peer).gattError
                break loop
            }
            if events.count > 1, events[1] != 0 { break }
            guard let socketEvents = events.first, socketEvents != 0 else { continue }
            switch syscalls.read(descriptor, maximumLength: Self.maximumMTU + 8) {
            case let .success(pdu) where pdu.isEmpty:
                end = GATTError(.disconnected, address: peer.description,
                                detail: "bluez:\(adapter): the device closed the link")
                break loop
            case let .success(pdu):
                inbox.send(pdu)
            case .failure(.interrupted), .failure(.wouldBlock):
                continue
            case let .failure(error):
                end = BlueZError("read", errno: error, adapter: adapter, address: peer).gattError
                // The kernel reports a dropped link's error (e.g. ETIMEDOUT for a device that
                // answered and rebooted) before the PDUs still queued; reading again returns them.
                drainQueued(descriptor)
                break loop
            }
        }
        state.withLock { state in
            state.closed = true
            syscalls.close(state.descriptor)
            state.descriptor = -1
        }
        if let failure = agent?.failure, let lost = end {
            end = GATTError(lost.kind, address: lost.address, detail: lost.detail + " (pairing failed: \(failure))")
        }
        agent?.stop()
        inbox.finish(throwing: end ?? closedError)
        syscalls.close(wakeRead)
        syscalls.close(wakeWrite)
    }
}

/// `struct timeval` bytes (tv_sec, tv_usec: two 64-bit integers on 64-bit Linux).
func timevalBytes(_ duration: Duration) -> [UInt8] {
    let (seconds, attoseconds) = duration.components
    return littleEndian(Int64(seconds)) + littleEndian(Int64(attoseconds / 1_000_000_000_000))
}

/// Runs blocking work (connect(2), a scan's poll loop) on its own thread and resumes the caller.
/// With `cancelledError`, cancelling the calling task (Ctrl-C) resumes it at once with that
/// error; the thread finishes on its own (bounded by the work's own timeout) and what it
/// returns then is handed to `abandoned` (a connection nobody waits for any more is closed).
enum BlockingCall {
    static func run<T: Sendable, E: Error>(_ name: String, cancelledError: (@Sendable () -> E)? = nil,
                                           abandoned: @escaping @Sendable (T) -> Void = { _ in },
                                           _ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let once = ResumeOnce<Result<T, E>>()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
                once.attach(continuation)
                if let cancelledError, Task.isCancelled {
                    once.resume(.failure(cancelledError()))
                    return
                }
                let thread = Thread {
                    let outcome: Result<T, E>
                    do throws(E) {
                        outcome = .success(try body())
                    } catch {
                        outcome = .failure(error)
                    }
                    if !once.resume(outcome), case let .success(value) = outcome { abandoned(value) }
                }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            if let cancelledError { once.resume(.failure(cancelledError())) }
        }
        return try result.get()
    }
}

/// A continuation resumed once, by whichever comes first (the work, or a cancellation that may
/// even come before the continuation exists).
final class ResumeOnce<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value, Never>?, early: Value?, done: Bool)>((nil, nil, false))

    func attach(_ continuation: CheckedContinuation<Value, Never>) {
        let early = state.withLock { state -> Value? in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.early = nil
            return early
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Resumes with `value`; false when it was already resumed (or given an earlier value).
    @discardableResult
    func resume(_ value: Value) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Value, Never>?? in
            guard !state.done else { return .none }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = value
                return .some(nil)
            }
            state.continuation = nil
            return .some(continuation)
        }
        switch continuation {
        case .none: return false
        case let .some(waiting):
            waiting?.resume(returning: value)
            return true
        }
    }
}
