/// Joins the decoded text of SMP console frames into packets and checks their total length and
/// CRC, as Zephyr's `mcumgr_serial_process_frag` (`subsys/mgmt/mcumgr/transport/src/serial_util.c`)
/// does: each frame's text is base64-decoded on its own and appended; a first frame (`06 09`)
/// starts over; the packet is complete when the bytes after the total length reach it.
///
/// After a packet is discarded, its remaining continuation frames are dropped without a word
/// (one discard per lost packet) until the next first frame; Zephyr drops them silently too.
struct SMPConsolePacketAssembler: Sendable {
    let maximumPacketLength: Int
    private var state: State = .idle

    private enum State: Sendable {
        /// No packet in progress: a continuation frame is reported.
        case idle
        /// `bytes` (after the total length) of a packet whose total length is `announced`, whose
        /// first frame is at stream offset `start`.
        case receiving(announced: Int, bytes: [UInt8], start: Int)
        /// Continuation frames of a discarded packet are dropped until the next first frame.
        case droppingContinuations
    }

    init(maximumPacketLength: Int) {
        self.maximumPacketLength = maximumPacketLength
    }

    /// Takes a whole frame: its `marker` at stream offset `frameOffset`, then `text` (between the
    /// marker and the newline, a trailing carriage return removed).
    mutating func frame(_ marker: SMPConsoleFraming.Marker, text: ArraySlice<UInt8>, at frameOffset: Int)
        -> [SMPConsoleOutput] {
        var outputs: [SMPConsoleOutput] = []
        func discard(_ reason: SMPConsoleDiscard.Reason, packet: Int?) -> [SMPConsoleOutput] {
            outputs + [.discarded(SMPConsoleDiscard(reason: reason, frameOffset: frameOffset, packetOffset: packet))]
        }

        var announced = 0
        var bytes: [UInt8] = []
        var start = frameOffset
        switch state {
        case .idle:
            if marker == .continuation { return discard(.continuationWithoutStart, packet: nil) }
        case .droppingContinuations:
            if marker == .continuation { return [] }
        case .receiving(let total, var received, let packetStart):
            state = .droppingContinuations  // drops the state's copy, so that the bytes grow in place
            if marker == .continuation {
                (announced, start) = (total, packetStart)
                swap(&bytes, &received)
            } else {
                outputs = discard(.abandonedForNewPacket(decoded: received.count, announced: total), packet: packetStart)
            }
        }
        state = .droppingContinuations

        switch Base64.decode(text) {
        case .failure(let error):
            return discard(.badBase64(offset: frameOffset + 2 + error.index), packet: start)
        case .success(let decoded):
            bytes += decoded
        }
        if marker == .packetStart {
            guard bytes.count >= 2 else { return discard(.startFrameWithoutLength(decodedByteCount: bytes.count), packet: start) }
            announced = Int(bytes[0]) << 8 | Int(bytes[1])
            bytes.removeFirst(2)
            guard announced >= 2 else { return discard(.announcedLengthTooSmall(announced: announced), packet: start) }
            guard announced - 2 <= maximumPacketLength else {
                return discard(.announcedLengthTooLarge(announced: announced - 2, limit: maximumPacketLength), packet: start)
            }
        }

        guard bytes.count >= announced else {
            state = .receiving(announced: announced, bytes: bytes, start: start)
            return outputs
        }
        guard bytes.count == announced else {
            return discard(.lengthDisagreement(announced: announced, decoded: bytes.count), packet: start)
        }
        let packet = Array(bytes[..<(announced - 2)])
        let received = UInt16(bytes[announced - 2]) << 8 | UInt16(bytes[announced - 1])
        let computed = UInt16(SMPConsoleFraming.checksum.checksum(packet))
        guard received == computed else {
            return discard(.checksumMismatch(received: received, computed: computed), packet: start)
        }
        state = .idle
        return outputs + [.packet(packet)]
    }

    /// A frame with `marker` at stream offset `frameOffset` ran past `limit` bytes: it is
    /// dropped, and with it the packet it belongs to.
    mutating func overlongFrame(_ marker: SMPConsoleFraming.Marker, limit: Int, at frameOffset: Int)
        -> [SMPConsoleOutput] {
        var outputs: [SMPConsoleOutput] = []
        var packetOffset: Int?
        switch (marker, state) {
        case let (.packetStart, .receiving(total, received, packetStart)):
            outputs.append(.discarded(SMPConsoleDiscard(reason: .abandonedForNewPacket(decoded: received.count, announced: total),
                                                        frameOffset: frameOffset, packetOffset: packetStart)))
            packetOffset = frameOffset
        case (.packetStart, _):
            packetOffset = frameOffset
        case let (.continuation, .receiving(_, _, packetStart)):
            packetOffset = packetStart
        case (.continuation, _):
            packetOffset = nil
        }
        state = .droppingContinuations
        return outputs + [.discarded(SMPConsoleDiscard(reason: .overlongFrame(limit: limit), frameOffset: frameOffset,
                                                       packetOffset: packetOffset))]
    }
}
