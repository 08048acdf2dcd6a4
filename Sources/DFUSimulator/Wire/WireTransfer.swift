/// Bytes on their way along a simulated line: one send of a stream, or one datagram.
///
/// Byte `i` of a stream transfer has fully arrived `byteTime * (i + 1) + latency` after
/// `start`; a datagram arrives whole `latency` after it. Bytes the line loses (`lost`, by index)
/// still take their time on the line.
struct WireTransfer: Sendable, Equatable {
    var bytes: [UInt8]
    var start: Duration
    var byteTime: Duration
    var latency: Duration
    var isDatagram: Bool
    /// Indices of bytes lost on the line.
    var lost: Set<Int> = []
    /// Of a transfer to the device: the run-wide number (1-based) of its first byte; nil for
    /// line noise, which the byte faults do not count.
    var firstByteNumber: Int?
    /// Bytes already handed on (to the device, or to the host's buffer).
    var handedOn = 0

    /// When byte `index` has arrived.
    func arrival(ofByte index: Int) -> Duration {
        isDatagram ? start + latency : start + byteTime * (index + 1) + latency
    }

    /// When the last byte has arrived.
    var end: Duration { arrival(ofByte: max(0, bytes.count - 1)) }

    /// When the next byte not yet handed on arrives; nil when all were.
    var nextArrival: Duration? {
        handedOn < bytes.count ? arrival(ofByte: handedOn) : nil
    }

    /// How many bytes, counting from the start, have arrived by `time`.
    func arrivedCount(by time: Duration) -> Int {
        if isDatagram { return start + latency <= time ? bytes.count : 0 }
        guard time >= start + latency else { return 0 }
        guard byteTime > .zero else { return bytes.count }
        // An estimate in floating point, then made exact against the arrival times themselves.
        var count = min(bytes.count, max(0, Int(((time - start - latency) / byteTime).rounded(.down))))
        while count < bytes.count, arrival(ofByte: count) <= time { count += 1 }
        while count > 0, arrival(ofByte: count - 1) > time { count -= 1 }
        return count
    }

    /// Bytes `range`, without those lost.
    func kept(_ range: Range<Int>) -> [UInt8] {
        lost.isEmpty ? Array(bytes[range]) : range.filter { !lost.contains($0) }.map { bytes[$0] }
    }

    /// Cuts off what has not arrived by `time` (the sender stopped then); false when nothing is left.
    mutating func truncate(after time: Duration) -> Bool {
        let arrived = arrivedCount(by: time)
        if isDatagram { return start <= time }
        bytes.removeSubrange(arrived...)
        lost = lost.filter { $0 < arrived }
        return !bytes.isEmpty
    }
}
