import DFUGATT
import DFUWire
import Foundation
import Synchronization

/// One open descriptor (a terminal or a UDP socket) and the thread that serves it: the thread
/// blocks in poll(2) on the descriptor and a wake-up pipe, hands what it reads to an
/// `AsyncBuffer`, and finishes the writes that would have blocked when the descriptor takes
/// them again (or fails them at their deadline). Writes that the descriptor takes at once are
/// made by the caller. `close()` wakes the thread, which closes the descriptor, once.
///
/// The descriptor is used under `state`'s lock by writers and by the thread's writes; reads are
/// the thread's alone. Wake-ups are written under the lock while the pump runs, and the thread
/// closes the pipe under the lock once it ended, so no write reaches a reused descriptor.
package final class DescriptorPump: Sendable {
    /// The wire, for errors: `/dev/ttyACM0`.
    package let name: String
    private let descriptor: Int32
    private let style: DescriptorStyle
    private let syscalls: any WireSyscalls
    /// What ECONNREFUSED means on this descriptor (nothing listens at the address).
    private let refusedDetail: String
    /// Who reads what is written, for a write that times out.
    private let reader: StalledWriteReader
    /// The most one read(2) / recv(2) takes.
    private let readSize: Int
    private let incoming = AsyncBuffer<PumpArrival, WireError>()
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = Mutex(State())

    private struct PendingWrite {
        var bytes: [UInt8]
        var written = 0
        var destination: SocketAddress?
        var timeout: Duration
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<WireError?, Never>
    }

    private enum Phase {
        case running
        /// `close()` was called; the thread has yet to close the descriptor.
        case closing
        /// The descriptor is closed, for this reason.
        case ended(WireError)
    }

    private struct State {
        var phase = Phase.running
        /// Writes the descriptor did not take at once, oldest first; only the first may be
        /// partly written.
        var writes: [PendingWrite] = []
    }

    private enum Attempt {
        case done
        case blocked
        case failed(WireError)
    }

    /// Serves `descriptor`, which it owns once this returns (closed when the pump ends).
    /// - Throws: `.unavailable` when no wake-up pipe can be made (the descriptor is then the
    ///   caller's to close).
    package init(descriptor: Int32, style: DescriptorStyle, name: String, readSize: Int,
                 refusedDetail: String = "the other end refused the datagram",
                 reader: StalledWriteReader = .device, syscalls: any WireSyscalls) throws(WireError) {
        let ends: (read: Int32, write: Int32)
        switch syscalls.pipe() {
        case let .success(pipeEnds): ends = pipeEnds
        case let .failure(error):
            throw WireError(.unavailable, wire: name, detail: "cannot make the reader's wake-up pipe: pipe2: \(error)")
        }
        self.descriptor = descriptor
        self.style = style
        self.name = name
        self.readSize = readSize
        self.refusedDetail = refusedDetail
        self.reader = reader
        self.syscalls = syscalls
        self.wakeRead = ends.read
        self.wakeWrite = ends.write
        let thread = Thread { [self] in run() }
        thread.name = "DFUSerial \(name)"
        thread.start()
    }

    // MARK: - Consumers

    /// What arrived next: a datagram, or whatever a stream had (what is queued is joined, up to
    /// `readSize` bytes); nil once `deadline` passed, or the calling task was cancelled.
    /// - Throws: the failure the pump ended with (every time), or a failure that leaves it open.
    package func receive(until deadline: ContinuousClock.Instant)
        async throws(WireError) -> (bytes: [UInt8], sender: SocketAddress?)? {
        let arrival: PumpArrival
        switch try await incoming.next(until: deadline) {
        case let .element(element): arrival = element
        case .gaveUp: return nil
        case .end: throw incoming.failure ?? closedError
        }
        switch arrival {
        case let .failure(error):
            throw error
        case let .bytes(bytes, sender):
            guard case .stream = style else { return (bytes, sender) }
            var joined = bytes
            while joined.count < readSize, incoming.count > 0,
                  case let .element(.bytes(more, _))? = try? await incoming.next(until: .now) {
                joined += more
            }
            return (joined, nil)
        }
    }

    /// Writes all of `bytes` (a datagram: as one, to `destination` when the socket is not
    /// connected), waiting at most `timeout` for a descriptor that does not take them.
    package func write(_ bytes: [UInt8], to destination: SocketAddress? = nil, timeout: Duration) async throws(WireError) {
        let failure: WireError? = await withCheckedContinuation { (continuation: CheckedContinuation<WireError?, Never>) in
            let immediate = state.withLock { state -> WireError?? in
                switch state.phase {
                case .closing: return .some(closedError)
                case let .ended(reason): return .some(reason)
                case .running: break
                }
                var pending = PendingWrite(bytes: bytes, destination: destination, timeout: timeout,
                                           deadline: .now + timeout, continuation: continuation)
                if state.writes.isEmpty {
                    switch attempt(&pending) {
                    case .done: return .some(nil)
                    case let .failed(error): return .some(error)
                    case .blocked: break
                    }
                }
                state.writes.append(pending)
                signalWake()
                return .none
            }
            if case let .some(result) = immediate { continuation.resume(returning: result) }
        }
        if let failure { throw failure }
    }

    /// Stops the thread and closes the descriptor; returns once it is closed.
    package func close() async {
        requestClose()
        _ = await incoming.waitForEnd()
    }

    /// Asks the thread to stop and close the descriptor, without waiting.
    package func requestClose() {
        state.withLock { state in
            guard case .running = state.phase else { return }
            state.phase = .closing
            signalWake()
        }
    }

    // MARK: - The thread

    private func run() {
        var reason: WireError?
        while reason == nil {
            let (expired, watchOutput, timeout, closing) = prepare()
            for (write, error) in expired { write.continuation.resume(returning: error) }
            if closing { break }
            let requests = [PollRequest(descriptor, for: watchOutput ? [.input, .output] : .input),
                            PollRequest(wakeRead, for: .input)]
            let ready: [PollEvents]
            switch syscalls.poll(requests, timeoutMilliseconds: timeout) {
            case let .success(events): ready = events
            case .failure(.interrupted): continue
            case let .failure(error):
                reason = WireError(.io, wire: name, detail: "poll: \(error)")
                continue
            }
            if !ready[1].isEmpty { drainWakeUps() }
            let events = ready[0]
            if events.contains(.invalid) {
                reason = WireError(.io, wire: name, detail: "the descriptor was closed under the wire (POLLNVAL)")
                continue
            }
            if watchOutput, !events.isDisjoint(with: [.output, .error, .hangUp]) {
                for (write, error) in flushWrites() { write.continuation.resume(returning: error) }
            }
            if !events.isDisjoint(with: [.input, .error, .hangUp]) {
                reason = readOnce(hungUp: !events.isDisjoint(with: [.hangUp, .error]))
            }
        }
        end(reason)
    }

    /// Fails the writes past their deadline; says whether to watch for output, how long poll
    /// may wait (until the next deadline) and whether `close()` was called.
    private func prepare() -> (expired: [(PendingWrite, WireError)], watchOutput: Bool, timeout: Int32, closing: Bool) {
        state.withLock { state in
            if case .closing = state.phase { return ([], false, 0, true) }
            let now = ContinuousClock.now
            var expired: [(PendingWrite, WireError)] = []
            state.writes.removeAll { write in
                guard write.deadline <= now else { return false }
                expired.append((write, notReadingError(write)))
                return true
            }
            guard let next = state.writes.map(\.deadline).min() else { return (expired, false, -1, false) }
            let wait = now.duration(to: next)
            // Rounded up: poll must not wake before the deadline.
            let (seconds, attoseconds) = wait.components
            let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            return (expired, true, Int32(clamping: max(0, milliseconds)), false)
        }
    }

    /// Writes what the descriptor takes now, oldest first; the writes that finished or failed.
    private func flushWrites() -> [(PendingWrite, WireError?)] {
        state.withLock { state in
            var finished: [(PendingWrite, WireError?)] = []
            while var write = state.writes.first {
                let outcome = attempt(&write)
                switch outcome {
                case .blocked:
                    state.writes[0] = write
                    return finished
                case .done:
                    finished.append((write, nil))
                case let .failed(error):
                    finished.append((write, error))
                }
                state.writes.removeFirst()
            }
            return finished
        }
    }

    /// One read; the reason the pump ends, or nil to go on.
    private func readOnce(hungUp: Bool) -> WireError? {
        switch style {
        case .stream:
            switch syscalls.read(descriptor, maximumLength: readSize) {
            case let .success(bytes):
                guard !bytes.isEmpty else { return wentAway("read: end of file (the other end hung up)") }
                incoming.send(.bytes(bytes, sender: nil))
            case .failure(.interrupted):
                break
            case .failure(.wouldBlock):
                // Nothing to read, yet poll says the terminal hung up or failed: it is gone.
                if hungUp { return wentAway("poll: hang-up or error (POLLHUP / POLLERR)") }
            case let .failure(error) where Self.goneErrors.contains(error):
                return wentAway("read: \(error)")
            case let .failure(error):
                return WireError(.io, wire: name, detail: "read: \(error)")
            }
        case .connectedDatagram:
            switch syscalls.receive(descriptor, maximumLength: readSize) {
            case let .success(bytes):
                incoming.send(.bytes(bytes, sender: nil))
            case .failure(.interrupted), .failure(.wouldBlock):
                break
            case .failure(.connectionRefused):
                incoming.send(.failure(refusedError))
            case let .failure(error):
                return WireError(.io, wire: name, detail: "recv: \(error)")
            }
        case .boundDatagram:
            switch syscalls.receiveFrom(descriptor, maximumLength: readSize) {
            case let .success((bytes, sender)):
                incoming.send(.bytes(bytes, sender: sender))
            case .failure(.interrupted), .failure(.wouldBlock), .failure(.connectionRefused):
                break
            case let .failure(error):
                return WireError(.io, wire: name, detail: "recvfrom: \(error)")
            }
        }
        return nil
    }

    /// Closes the descriptor and the pipe, fails the writes still waiting and ends the buffer.
    private func end(_ failure: WireError?) {
        let (reason, writes) = state.withLock { state -> (WireError, [PendingWrite]) in
            var reason = failure ?? closedError
            if case .closing = state.phase { reason = closedError }
            state.phase = .ended(reason)
            let writes = state.writes
            state.writes = []
            syscalls.close(descriptor)
            syscalls.close(wakeRead)
            syscalls.close(wakeWrite)
            return (reason, writes)
        }
        for write in writes { write.continuation.resume(returning: reason) }
        incoming.finish(throwing: reason)
    }

    // MARK: - Writing

    /// Writes what the descriptor takes of `write` now. Called with the lock held.
    private func attempt(_ write: inout PendingWrite) -> Attempt {
        switch style {
        case .stream:
            while write.written < write.bytes.count {
                switch syscalls.write(descriptor, bytes: write.bytes[write.written...]) {
                case let .success(count): write.written += count
                case .failure(.interrupted): continue
                case .failure(.wouldBlock): return .blocked
                case let .failure(error) where Self.goneErrors.contains(error) || error == .brokenPipe:
                    return .failed(wentAway("write: \(error)"))
                case let .failure(error):
                    return .failed(WireError(.io, wire: name, detail: "write: \(error)"))
                }
            }
            return .done
        case .connectedDatagram, .boundDatagram:
            while true {
                let result: Result<Int, Errno>
                if let destination = write.destination {
                    result = syscalls.send(descriptor, bytes: write.bytes[...], to: destination)
                } else {
                    result = syscalls.send(descriptor, bytes: write.bytes[...])
                }
                switch result {
                case let .success(count) where count == write.bytes.count:
                    write.written = count
                    return .done
                case let .success(count):
                    return .failed(WireError(.io, wire: name, detail: "send: \(count) of a \(write.bytes.count)-byte datagram sent"))
                case .failure(.interrupted): continue
                case .failure(.wouldBlock): return .blocked
                case .failure(.connectionRefused): return .failed(refusedError)
                case .failure(.messageTooLong):
                    return .failed(WireError(.io, wire: name,
                                             detail: "a \(write.bytes.count)-byte datagram is too long to send (EMSGSIZE); "
                                                 + "make the profile's messages smaller"))
                case let .failure(error):
                    return .failed(WireError(.io, wire: name, detail: "send: \(error)"))
                }
            }
        }
    }

    /// Wakes the thread. Called with the lock held, while the pump runs.
    private func signalWake() {
        var byte: UInt8 = 1
        // A full pipe already wakes the thread: EAGAIN is fine.
        _ = syscalls.write(wakeWrite, bytes: withUnsafeBytes(of: &byte) { Array($0) }[...])
    }

    private func drainWakeUps() {
        while case let .success(bytes) = syscalls.read(wakeRead, maximumLength: 64), !bytes.isEmpty {}
    }

    // MARK: - Errors

    /// What a read or write of a terminal whose device is gone fails with (EIO: the USB device
    /// reset; ENXIO / ENODEV: its driver let go of the port).
    private static let goneErrors: Set<Errno> = [.ioError, .noSuchDeviceOrAddress, .noDevice]

    private var closedError: WireError { WireError(.closed, wire: name, detail: "the wire is closed") }

    private var refusedError: WireError { WireError(.unavailable, wire: name, detail: refusedDetail) }

    private func wentAway(_ how: String) -> WireError {
        WireError(.closed, wire: name,
                  detail: "the port went away (\(how)): the device reset or was unplugged; "
                      + "open it again once it is back")
    }

    private func notReadingError(_ write: PendingWrite) -> WireError {
        let what = style == .stream ? "\(write.written) of \(write.bytes.count) bytes written"
                                    : "a \(write.bytes.count)-byte datagram not sent"
        return WireError(.io, wire: name,
                         detail: "\(reader.complaint): \(what) in \(write.timeout.secondsText) (\(reader.hint))")
    }
}

/// Who reads what a pump writes, as a write that times out says it.
package struct StalledWriteReader: Sendable {
    /// What went wrong: `the device does not read`.
    package var complaint: String
    /// What to check.
    package var hint: String

    /// The device at the other end of a port or socket.
    package static let device = StalledWriteReader(
        complaint: "the device does not read",
        hint: "is it running and reading this port? with hardware flow control, does it assert CTS?")

    /// The clients of a pseudo-terminal's device end.
    package static let client = StalledWriteReader(
        complaint: "no client reads the pseudo-terminal",
        hint: "what the device end writes waits there until a client opens the port and reads it")
}
