/// The clock-driven part of a simulated device's life, as a pure state machine: it runs; a
/// reset comes due (a firmware's reset timer, a bootloader's busy-wait before `NVIC_SystemReset`);
/// it reboots and stays silent while its bootloader works (an MCUboot swap, a bank copy) and
/// the firmware starts; then it advertises again. Devices keep one and map its deadlines onto
/// `SimulatedPeripheral.nextTimer` / `fireTimers(at:)`.
struct PowerCycle: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        case running
        /// A reset is due at `at`; until then the device runs, advertising or not (a
        /// bootloader that ends its link to reset does not advertise again).
        case resetDue(at: Duration, advertises: Bool)
        /// Rebooted: silent (no advertising, no link) until `until`.
        case booting(until: Duration)
    }

    /// What `due(at:)` found.
    enum Due: Equatable {
        /// The reset is due: the device reboots now (call `rebooted(at:silentFor:)`).
        case reset
        /// The boot is over: the device runs and advertises (the machine is `running` again).
        case booted
    }

    private(set) var phase = Phase.running

    /// When the next transition is due; nil while running with nothing scheduled.
    var deadline: Duration? {
        switch phase {
        case .running: return nil
        case let .resetDue(at, _): return at
        case let .booting(until): return until
        }
    }

    var isAdvertising: Bool {
        switch phase {
        case .running: return true
        case let .resetDue(_, advertises): return advertises
        case .booting: return false
        }
    }

    var isBooting: Bool {
        if case .booting = phase { return true }
        return false
    }

    var isResetDue: Bool {
        if case .resetDue = phase { return true }
        return false
    }

    /// Arms a reset at `time`. A reset already armed keeps its earlier time (as Zephyr's
    /// `k_work_schedule` leaves scheduled work alone); a booting device has no firmware running
    /// to arm one.
    mutating func scheduleReset(at time: Duration, advertises: Bool = true) {
        switch phase {
        case .running:
            phase = .resetDue(at: time, advertises: advertises)
        case let .resetDue(at, wasAdvertising):
            phase = .resetDue(at: min(at, time), advertises: wasAdvertising && advertises)
        case .booting:
            break
        }
    }

    /// The device reset at `time` (its reset came due, or power was lost): silent for `silence`.
    mutating func rebooted(at time: Duration, silentFor silence: Duration) {
        phase = .booting(until: time + silence)
    }

    /// Whether a transition is due at `time`. `booted` also moves the machine to `running`.
    mutating func due(at time: Duration) -> Due? {
        switch phase {
        case .running:
            return nil
        case let .resetDue(at, _):
            return at <= time ? .reset : nil
        case let .booting(until):
            guard until <= time else { return nil }
            phase = .running
            return .booted
        }
    }

    /// A new world's clock: deadlines keep the time they had left.
    mutating func shift(by offset: Duration) {
        switch phase {
        case .running: break
        case let .resetDue(at, advertises): phase = .resetDue(at: at + offset, advertises: advertises)
        case let .booting(until): phase = .booting(until: until + offset)
        }
    }
}
