/// Rebuilds L2CAP frames from the ACL packets of one connection: a first fragment, then
/// continuation fragments until the L2CAP header's length is reached. Pure state.
package struct ACLReassembler: Sendable {
    package enum Outcome: Sendable, Hashable {
        /// A whole L2CAP frame (basic header included).
        case frame([UInt8])
        /// More fragments are needed.
        case incomplete
        /// Bytes were thrown away; `reason` says why (still returns nothing usable).
        case discarded(reason: String)
    }

    /// Largest frame accepted (basic header + 65535 bytes of payload).
    package static let maximumFrameLength = 4 + 0xFFFF

    private var pending: [UInt8] = []
    private var inProgress = false

    package init() {}

    /// Whether a frame has started and is not complete.
    package var isInProgress: Bool { inProgress }

    package mutating func append(_ packet: ACLPacket) -> Outcome {
        var note: String?
        if packet.boundary.isFirst {
            if inProgress {
                note = "a new frame started before the previous one was complete (\(pending.count) byte(s) dropped)"
            }
            pending = packet.data
            inProgress = true
        } else if packet.boundary == .continuation {
            guard inProgress else {
                return .discarded(reason: "continuation fragment of \(packet.data.count) byte(s) without a first fragment")
            }
            pending.append(contentsOf: packet.data)
        } else {
            return .discarded(reason: "packet boundary flag \(packet.boundary.rawValue) is not used on LE")
        }
        guard pending.count >= 4 else { return note.map { .discarded(reason: $0) } ?? .incomplete }
        let expected = 4 + (Int(pending[0]) | Int(pending[1]) << 8)
        if pending.count == expected {
            let frame = pending
            reset()
            return .frame(frame)
        }
        if pending.count > expected {
            let length = pending.count
            reset()
            return .discarded(reason: "fragments add up to \(length) byte(s), the L2CAP header announced \(expected)")
        }
        return note.map { .discarded(reason: $0) } ?? .incomplete
    }

    private mutating func reset() {
        pending = []
        inProgress = false
    }
}
