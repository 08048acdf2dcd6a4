import DFUBytes

/// Turns the notifications of one characteristic into messages: one notification is one
/// message without a framing; with one, frames are reassembled by their length header, their
/// trailer checked, and each becomes the message it carries (an inserted length taken out; an
/// overlaid one left in its header). A notification that breaks the framing is dropped with a
/// note, and reassembly starts over; a frame whose trailer does not match is dropped alone.
struct NotificationMessages {
    /// What one notification completed: its messages, and notes on what was dropped.
    struct Received {
        var messages: [[UInt8]] = []
        var garbage: [String] = []
    }

    private let format: LengthHeaderFormat?
    private var reassembler: Reassembler?

    init(framing format: LengthHeaderFormat?) {
        self.format = format
        self.reassembler = format.map { Reassembler(format: $0) }
    }

    mutating func reset() { reassembler?.reset() }

    /// The complete messages `value` finishes, and why anything was dropped.
    mutating func append(_ value: [UInt8]) -> Received {
        guard var reassembler, let format else { return Received(messages: [value]) }
        defer { self.reassembler = reassembler }
        let frames: [[UInt8]]
        do {
            frames = try reassembler.append(value)
        } catch {
            reassembler.reset()
            return Received(garbage: ["garbage notification \(value.prefix(16).hexString): \(error)"])
        }
        var received = Received()
        for frame in frames {
            do {
                received.messages.append(try format.message(ofFrame: frame))
            } catch {
                received.garbage.append("garbage frame \(frame.prefix(16).hexString): \(error)")
            }
        }
        return received
    }
}
