#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// H4 over a file descriptor (TCP or UNIX stream socket, serial port, HCI user channel socket).
/// A dedicated thread blocks in poll(2) on the descriptor and a wake-up pipe, cuts the bytes into
/// packets (resynchronising on garbage) and yields them; `close()` wakes it through the pipe.
package final class H4StreamPipe: H4Pipe {
    package let name: String
    package let incoming: AsyncStream<HCIPacket>

    private struct State {
        var descriptor: Int32
        var closed = false
        var failure: HCIError?
        var discardedByteCount = 0
    }

    private let state: Mutex<State>
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Takes ownership of `descriptor` (closed when the transport closes).
    package init(descriptor: Int32, name: String) throws(HCIError) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            throw HCIError(.transportUnavailable, detail: "\(name): pipe: \(errnoDescription(errno))")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.name = name
        self.wakeRead = pipeEnds[0]
        self.wakeWrite = pipeEnds[1]
        self.state = Mutex(State(descriptor: descriptor))
        let (stream, continuation) = AsyncStream<HCIPacket>.makeStream()
        self.incoming = stream
        let thread = Thread { [self] in
            self.readLoop(descriptor: descriptor, continuation: continuation)
        }
        thread.name = "DFUHCI reader \(name)"
        thread.start()
    }

    package var failure: HCIError? { state.withLock { $0.failure } }

    /// Bytes skipped as garbage on the stream so far.
    package var discardedByteCount: Int { state.withLock { $0.discardedByteCount } }

    package func send(_ packet: HCIPacket) async throws(HCIError) {
        let bytes = packet.h4Bytes
        let problem: String? = state.withLock { state in
            guard !state.closed else { return state.failure?.description ?? "closed" }
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { buffer in
                    Glibc.send(state.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                }
                if count > 0 {
                    written += count
                } else if count < 0, errno == EINTR {
                    continue
                } else if count < 0, errno == ENOTSOCK {
                    // A serial port: plain write(2).
                    let plain = bytes[written...].withUnsafeBytes { Glibc.write(state.descriptor, $0.baseAddress, $0.count) }
                    if plain > 0 { written += plain } else if plain < 0, errno == EINTR { continue } else {
                        return "write: \(errnoDescription(errno))"
                    }
                } else {
                    return "write: \(errnoDescription(errno))"
                }
            }
            return nil
        }
        if let problem {
            throw HCIError(.transportClosed, detail: "\(name): \(problem)")
        }
    }

    package func close() {
        let wake = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.closed = true
            return true
        }
        if wake {
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWrite, &byte, 1)
        }
    }

    private func readLoop(descriptor: Int32, continuation: AsyncStream<HCIPacket>.Continuation) {
        var decoder = H4StreamDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var failure: String?
        loop: while true {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                failure = "poll: \(errnoDescription(errno))"
                break
            }
            if descriptors[1].revents != 0 { break }
            guard descriptors[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            switch count {
            case 0:
                failure = "the controller closed the connection"
                break loop
            case ..<0:
                if errno == EINTR || errno == EAGAIN { continue }
                failure = "read: \(errnoDescription(errno))"
                break loop
            default:
                let packets = decoder.append(buffer[0..<count])
                let discarded = decoder.discardedByteCount
                state.withLock { $0.discardedByteCount = discarded }
                for packet in packets {
                    continuation.yield(packet)
                }
            }
        }
        state.withLock { state in
            if let failure, !state.closed {
                state.failure = HCIError(.transportClosed, detail: "\(name): \(failure)")
            }
            state.closed = true
            _ = Glibc.close(state.descriptor)
            state.descriptor = -1
        }
        _ = Glibc.close(wakeRead)
        _ = Glibc.close(wakeWrite)
        continuation.finish()
    }
}
