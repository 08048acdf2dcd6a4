import DFUBytes

/// Turns the notifications of one characteristic into messages: one notification is one
/// message without a framing; with one, frames are reassembled by their length header (and a
/// length-only header is stripped). A notification that breaks the framing is dropped with a
/// note, and reassembly starts over.
struct NotificationMessages {
    private let format: LengthHeaderFormat?
    private var reassembler: Reassembler?

    init(framing format: LengthHeaderFormat?) {
        self.format = format
        self.reassembler = format.map { Reassembler(format: $0) }
    }

    mutating func reset() { reassembler?.reset() }

    /// The complete messages `value` finishes, or why it was dropped.
    mutating func append(_ value: [UInt8]) -> Result<[[UInt8]], GarbageNotification> {
        guard var reassembler, let format else { return .success([value]) }
        defer { self.reassembler = reassembler }
        do {
            return .success(try reassembler.append(value).map { format.isLengthOnly ? format.payload(ofFrame: $0) : $0 })
        } catch {
            reassembler.reset()
            return .failure(GarbageNotification(note: "garbage notification \(value.prefix(16).hexString): \(error)"))
        }
    }
}

struct GarbageNotification: Error {
    var note: String
}
