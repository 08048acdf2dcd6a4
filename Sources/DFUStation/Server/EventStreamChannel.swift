import CMicroHTTPD
import Foundation
import Synchronization

/// The bytes of one client's event stream, between the task that makes them (`write`) and the
/// libmicrohttpd thread that sends them (`read`, which blocks until there are bytes, the stream
/// ends, or the client closes its end). A pipe wakes the blocked reader; the client's socket is
/// watched for a hang-up, so a closed browser tab frees its thread at once instead of at the next
/// keep-alive.
final class EventStreamChannel: Sendable {
    private struct State {
        var pending: [UInt8] = []
        /// No more bytes will come: the reader ends the stream after the pending ones.
        var finished = false
        /// libmicrohttpd is done with the stream (the wake pipe is closed).
        var closed = false
        /// The client closed its end.
        var clientGone = false
        var producer: Task<Void, Never>?
    }

    /// The most bytes queued for a client before it counts as gone: one that reads this slowly
    /// (a stalled connection) is dropped, and its browser reconnects for a fresh snapshot.
    static let queueLimit = 4 << 20

    private let state = Mutex(State())
    private let clientSocket: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// A channel for the client on `clientSocket` (-1 when unknown: then only the stream's end and
    /// a failed write notice a closed client); nil when no pipe can be made.
    init?(clientSocket: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        self.clientSocket = clientSocket
        if clientSocket >= 0 {
            // Sent data unacknowledged for 45 s: the client vanished (cable, sleep), drop it.
            var milliseconds: UInt32 = 45_000
            _ = setsockopt(clientSocket, Int32(IPPROTO_TCP), dfukit_tcp_user_timeout(), &milliseconds,
                           socklen_t(MemoryLayout<UInt32>.size))
        }
    }

    /// The task that writes; cancelled when libmicrohttpd is done with the stream.
    func attach(_ producer: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            state.producer = producer
            return state.closed
        }
        if cancelNow { producer.cancel() }
    }

    /// Queues `bytes` for the client; false when the stream is over (the client left, reads too
    /// slowly, or the server stops), so the writer ends.
    func write(_ bytes: Data) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.finished, !state.clientGone else { return false }
            guard state.pending.count + bytes.count <= Self.queueLimit else {
                // libmicrohttpd's thread may be waiting for the socket to drain, not in `read`:
                // shutting the socket down wakes it with an error, and it closes the connection.
                state.clientGone = true
                if clientSocket >= 0 { _ = shutdown(clientSocket, Int32(SHUT_RDWR)) }
                wake(state)
                return false
            }
            state.pending.append(contentsOf: bytes)
            wake(state)
            return true
        }
    }

    /// Ends the stream after the bytes already queued (the writer is done, or the server stops).
    func finish() {
        state.withLock { state in
            state.finished = true
            wake(state)
        }
    }

    /// Writes one byte to the wake pipe (under the lock, so never after `close`).
    private func wake(_ state: borrowing State) {
        guard !state.closed else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)  // a full pipe is already readable: nothing lost
    }

    /// Copies up to `capacity` bytes into `buffer`, waiting for them; libmicrohttpd's content
    /// reader. Returns the count, `dfukit_mhd_end_of_stream()` when the stream ended, or
    /// `dfukit_mhd_end_with_error()` when the client left.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while true {
            enum Next { case copied(Int), ended, clientGone, wait }
            let next = state.withLock { state -> Next in
                if state.clientGone || state.closed { return .clientGone }
                if !state.pending.isEmpty {
                    let count = min(capacity, state.pending.count)
                    state.pending.withUnsafeBufferPointer { source in
                        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: count)
                    }
                    state.pending.removeFirst(count)
                    return .copied(count)
                }
                return state.finished ? .ended : .wait
            }
            switch next {
            case .copied(let count): return count
            case .ended: return dfukit_mhd_end_of_stream()
            case .clientGone: return dfukit_mhd_end_with_error()
            case .wait: break
            }
            var watched = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: clientSocket, events: dfukit_pollrdhup(), revents: 0)]
            let ready = poll(&watched, clientSocket >= 0 ? 2 : 1, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return dfukit_mhd_end_with_error()
            }
            if clientSocket >= 0, watched[1].revents & (dfukit_pollrdhup() | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0 {
                state.withLock { $0.clientGone = true }
                return dfukit_mhd_end_with_error()
            }
            if watched[0].revents & Int16(POLLIN) != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while Glibc.read(wakeRead, &drain, drain.count) > 0 {}
            }
        }
    }

    /// libmicrohttpd is done with the stream: cancels the writer and closes the wake pipe.
    func close() {
        let producer = state.withLock { state -> Task<Void, Never>? in
            guard !state.closed else { return nil }
            state.closed = true
            Glibc.close(wakeRead)
            Glibc.close(wakeWrite)
            return state.producer
        }
        producer?.cancel()
    }
}

/// The open event streams of one server, so that stopping it ends them (a stream never ends by
/// itself, and libmicrohttpd waits for every connection's thread when it stops).
final class EventStreamRegistry: Sendable {
    private let state = Mutex<(channels: [ObjectIdentifier: EventStreamChannel], stopping: Bool)>(([:], false))

    /// Adds `channel`; false when the server is stopping (the caller ends the stream at once).
    func add(_ channel: EventStreamChannel) -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.channels[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    /// Forgets `channel` (its stream is over).
    func remove(_ channel: EventStreamChannel) {
        _ = state.withLock { $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// How many streams are open.
    var count: Int { state.withLock { $0.channels.count } }

    /// Ends every stream and refuses new ones.
    func finishAll() {
        let channels = state.withLock { state -> [EventStreamChannel] in
            state.stopping = true
            return Array(state.channels.values)
        }
        for channel in channels { channel.finish() }
    }
}
