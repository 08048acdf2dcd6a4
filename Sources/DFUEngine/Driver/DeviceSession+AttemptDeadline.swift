import DFUGATT

/// The bound on a whole attempt (`FlashOptions.attemptTimeout`), on the transport's clock: a
/// simulated world's virtual time, a real adapter's monotonic time, counted from when the
/// session was made, so it bounds everything an attempt runs on it (the probe, the update, the
/// checks). Nothing here sleeps: each wait is cut to what is left of the attempt, and the
/// session checks the bound between steps, so an unresponsive device costs about the bound. One
/// ATT request under way (a write with response, a read) is bounded by the transport's own
/// transaction timeout (ATT's 30 s): the attempt ends when it returns, so it may overrun the
/// bound by that much.
extension DeviceSession {
    /// When the attempt must end, on the transport's clock; nil when unbounded.
    var attemptDeadline: Duration? { options.attemptTimeout.map { attemptStartedAt + $0 } }

    /// `timeout`, cut to what is left of the attempt (never negative).
    func boundedByAttempt(_ timeout: Duration) -> Duration {
        guard let attemptDeadline else { return timeout }
        return max(.zero, min(timeout, attemptDeadline - transport.now))
    }

    /// A moment `deadline`, no later than the attempt's end.
    func boundedByAttempt(deadline: Duration) -> Duration {
        attemptDeadline.map { min($0, deadline) } ?? deadline
    }

    /// The attempt's timeout error when its bound has passed (`while`: what was under way;
    /// `reached`: how far the update got, when an update is running), else nil.
    func attemptExpired(while doing: String, reached: String? = nil, image: String? = nil, offset: Int? = nil) -> FlashError? {
        guard let bound = options.attemptTimeout, let attemptDeadline, transport.now >= attemptDeadline else { return nil }
        let progress = reached ?? (address == nil ? "no device was reached" : "no image data had reached the device")
        return FlashError(kind: .timeout,
                          message: "the attempt reached its time bound of \(bound.secondsText) while \(doing); \(progress)",
                          address: address?.description, image: image, offset: offset,
                          hint: "check that the device is powered, in range and in the expected mode; allow the attempt "
                            + "more time if the update needs it")
    }
}

extension FlashSession {
    /// The session's attempt bound (`DeviceSession.attemptDeadline`).
    var attemptDeadline: Duration? { device.attemptDeadline }

    /// `timeout`, cut to what is left of the attempt.
    func boundedByAttempt(_ timeout: Duration) -> Duration { device.boundedByAttempt(timeout) }

    /// A moment `deadline`, no later than the attempt's end.
    func boundedByAttempt(deadline: Duration) -> Duration { device.boundedByAttempt(deadline: deadline) }

    /// The attempt's timeout error when its bound has passed, saying how far the update got;
    /// `describingDevice` adds what the device holds. `bytesHeld`: of the current image, when a
    /// procedure run knows more than the session.
    func attemptExpired(while doing: String, image: String? = nil, bytesHeld: Int? = nil) -> FlashError? {
        let held = max(bytesHeld ?? 0, imageBytesHeld)
        let reached: String? = delivered == 0 && held == 0 ? nil : "\(delivered + held) bytes had reached the device"
        return device.attemptExpired(while: doing, reached: reached, image: image, offset: image == nil ? nil : held)
    }
}
