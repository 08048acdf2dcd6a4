import DFUBytes

/// The messages in what goes one way over one characteristic: with a length-header framing,
/// frames reassembled from the ATT values (a length-only header is stripped: messages are
/// what the profile's fields describe); without one, each value is one message.
struct MessageStream {
    private let framing: LengthHeaderFormat?
    private var reassembler: Reassembler?
    /// ATT values taken since the last complete message.
    private(set) var pendingValues = 0

    init(framing: LengthHeaderFormat?) {
        self.framing = framing
        reassembler = framing.map { Reassembler(format: $0) }
    }

    /// The messages `value` completes (each with how many values it took), or why the value
    /// breaks the framing (reassembly then starts over).
    mutating func append(_ value: [UInt8]) -> Result<[(message: [UInt8], values: Int)], FramingError> {
        pendingValues += 1
        guard let framing, var reassembler else {
            defer { pendingValues = 0 }
            return .success([(value, 1)])
        }
        defer { self.reassembler = reassembler }
        do throws(FramingError) {
            let frames = try reassembler.append(value)
            guard !frames.isEmpty else { return .success([]) }
            let values = pendingValues
            pendingValues = reassembler.bufferedByteCount > 0 ? 1 : 0
            return .success(frames.enumerated().map { index, frame in
                (framing.isLengthOnly ? framing.payload(ofFrame: frame) : frame, index == 0 ? values : 1)
            })
        } catch {
            pendingValues = 0
            return .failure(error)
        }
    }
}
