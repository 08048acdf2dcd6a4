import DFUGATT

/// The bound on a whole attempt (`FlashOptions.attemptTimeout`), on the transport's clock: a
/// simulated world's virtual time, a real adapter's monotonic time. Nothing here sleeps: each
/// wait the session makes is cut to what is left of the attempt, and the session checks the
/// bound between steps, so an unresponsive device costs about the bound. One ATT request under
/// way (a write with response, a read) is bounded by the transport's own transaction timeout
/// (ATT's 30 s): the attempt ends when it returns, so it may overrun the bound by that much.
extension FlashSession {
    /// When the attempt must end, on the transport's clock; nil when unbounded.
    var attemptDeadline: Duration? { options.attemptTimeout.map { startedAt + $0 } }

    /// `timeout`, cut to what is left of the attempt (never negative).
    func boundedByAttempt(_ timeout: Duration) -> Duration {
        guard let attemptDeadline else { return timeout }
        return max(.zero, min(timeout, attemptDeadline - transport.now))
    }

    /// A moment `deadline`, no later than the attempt's end.
    func boundedByAttempt(deadline: Duration) -> Duration {
        attemptDeadline.map { min($0, deadline) } ?? deadline
    }

    /// The attempt's timeout error when its bound has passed (`while`: what was under way),
    /// else nil. It says how far the update got; `describingDevice` adds what the device holds.
    /// `bytesHeld`: of the current image, when a procedure run knows more than the session.
    func attemptExpired(while doing: String, image: String? = nil, bytesHeld: Int? = nil) -> FlashError? {
        guard let bound = options.attemptTimeout, let attemptDeadline, transport.now >= attemptDeadline else { return nil }
        let held = max(bytesHeld ?? 0, imageBytesHeld)
        let reached: String
        if delivered == 0, held == 0 {
            reached = address == nil ? "no device was reached" : "no image data had reached the device"
        } else {
            reached = "\(delivered + held) bytes had reached the device"
        }
        return FlashError(kind: .timeout,
                          message: "the attempt reached its time bound of \(bound.secondsText) while \(doing); \(reached)",
                          address: address?.description, image: image, offset: image == nil ? nil : held,
                          hint: "check that the device is powered, in range and in the expected mode; allow the attempt "
                            + "more time if the update needs it")
    }
}
