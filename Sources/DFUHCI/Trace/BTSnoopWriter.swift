#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Writes HCI packets to a btsnoop file as they pass (`--trace FILE`). Each record is written
/// with one write(2), so a crash leaves a readable file up to the last packet.
package final class BTSnoopWriter: Sendable {
    package let path: String
    private let descriptor: Mutex<Int32>
    private let clock: @Sendable () -> Int64

    /// Microseconds since 1970 from the real-time clock.
    package static let systemClock: @Sendable () -> Int64 = {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }

    /// Creates (or truncates) `path` and writes the file header.
    package init(path: String, clock: @escaping @Sendable () -> Int64 = BTSnoopWriter.systemClock) throws(HCIError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw HCIError(.invalidState, detail: "cannot create trace file \(path): \(errnoDescription(errno))")
        }
        self.path = path
        self.descriptor = Mutex(descriptor)
        self.clock = clock
        guard Self.writeAll(descriptor, BTSnoopFormat.fileHeader) else {
            _ = Glibc.close(descriptor)
            throw HCIError(.invalidState, detail: "cannot write trace file \(path): \(errnoDescription(errno))")
        }
    }

    /// Appends one record. Trace I/O errors do not stop the update; the first one closes the file.
    package func record(_ packet: HCIPacket, direction: BTSnoopFormat.Direction) {
        let bytes = BTSnoopFormat.record(for: packet, direction: direction, unixMicroseconds: clock())
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            if !Self.writeAll(descriptor, bytes) {
                _ = Glibc.close(descriptor)
                descriptor = -1
            }
        }
    }

    package func close() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
