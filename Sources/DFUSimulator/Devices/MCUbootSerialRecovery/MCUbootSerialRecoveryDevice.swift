import DFUBytes
import DFUWire

/// A device with MCUboot's serial recovery on a serial line (`sim:mcuboot-serial-recovery`):
/// MCUboot itself answers SMP (`MCUbootSerialRecovery`) until a reset, then boots the image in
/// slot 0, a Zephyr application that (by default) answers SMP on the same console
/// (`SMPServer`, as `SMPWireDevice`).
///
/// - Recovery reads console lines as `boot/zephyr/serial_adapter.c` does (128-byte lines, a
///   longer one cut) or raw SMP (`CONFIG_BOOT_SERIAL_RAW_PROTOCOL`), one request at a time, and
///   answers in 127-byte frames (`boot_serial_output`, `SMPConsoleEncoder`). A packet larger
///   than `MCUBOOT_SERIAL_MAX_RECEIVE_SIZE` is dropped unanswered.
/// - `reset` is answered, then MCUboot sleeps 250 ms (hearing nothing) and reboots. Entering
///   recovery follows `entrance`: with the button, the device starts in recovery and boots the
///   application after any reset; with `waitForDFU`, MCUboot listens for its window after every
///   reset and stays in recovery when a request comes. With no valid image in slot 0 it stays
///   in recovery (`CONFIG_BOOT_SERIAL_NO_APPLICATION`; without it MCUboot would halt).
/// - The application boots from slot 0 as written: trailers erased by the upload, no swap, so
///   `img_mgmt` lists it active and confirmed (`img_mgmt_state_read`: the active slot is
///   confirmed unless the next boot reverts). Its own SMP uploads, tests and resets go through
///   MCUboot's swap as with `SMPServerDevice`; its answers are Zephyr's frames.
public final class MCUbootSerialRecoveryDevice: SimulatedWirePeripheral {
    /// What runs.
    public enum Mode: Sendable, Equatable {
        /// MCUboot's serial recovery.
        case recovery
        /// MCUboot listening for a request before it boots the application (`waitForDFU`).
        case waitingForRequest
        /// The application in slot 0.
        case application
    }

    /// How the device is built.
    public let settings: MCUbootSerialRecoverySettings
    /// What runs now (while it reboots: what ran last).
    public private(set) var mode: Mode
    private let lineLength: Int
    private var recovery: MCUbootSerialRecovery
    /// The application's SMP server, while the application runs.
    private var application: SMPServer?
    private var receiver: SMPDeviceReceiver
    private var queue = RequestQueue(capacity: 1)
    private var cycle = PowerCycle()
    private var windowEnds: Duration?
    private var idleDeadline: Duration?
    /// Resets so far.
    package private(set) var rebootCount = 0

    /// A device whose slot 0 holds `image` (nil: empty), in recovery (button) or listening for
    /// a request (wait for DFU), with console lines of `lineLength` bytes.
    public init(settings: MCUbootSerialRecoverySettings = MCUbootSerialRecoverySettings(), lineLength: Int = 128,
                image: [UInt8]? = SMPServerDevice.factoryImage.bytes) {
        self.settings = settings
        self.lineLength = lineLength
        self.recovery = MCUbootSerialRecovery(settings: settings, flash: MCUbootFlash(primary: image ?? []))
        self.receiver = .mcuboot(raw: settings.rawProtocol, lineLength: lineLength, maximumReceive: settings.maximumReceiveSize)
        if case let .waitForDFU(window) = settings.entrance {
            mode = .waitingForRequest
            windowEnds = window
        } else {
            mode = .recovery
        }
    }

    /// `MCUboot serial recovery`, or the application's name.
    public var name: String { mode == .application ? "Zephyr application (MCUboot)" : "MCUboot serial recovery" }
    /// A stream: a UART or USB CDC-ACM.
    public var wireKind: WireKind { .stream }
    /// False while it reboots.
    public var isRunning: Bool { !cycle.isBooting }
    /// Slot 0's image, when it holds a valid one.
    public var primaryImage: SMPSlotImage? { flash.slots?.primary }
    /// The slots as flash holds them now.
    var flash: MCUbootFlash {
        var flash = recovery.flash
        if let slots = application?.slots { flash.take(slots) }
        return flash
    }

    // MARK: - Requests

    public func receive(_ bytes: [UInt8], at time: Duration) -> [WireDeviceOutput] {
        guard isRunning else { return [] }
        if mode != .application, settings.rawProtocol, let timeout = settings.rawInputTimeout { idleDeadline = time + timeout }
        return receiver.packets(from: bytes).flatMap { respond(to: $0, at: time) }
    }

    private func respond(to packet: [UInt8], at time: Duration) -> [WireDeviceOutput] {
        switch mode {
        case .application:
            guard settings.applicationSpeaksSMP, var server = application,
                  let start = queue.admit(at: time), let outcome = server.handle(frame: packet) else { return [] }
            application = server
            let done = queue.finish(startedAt: start, cost: outcome.cost)
            if outcome.armsReset { cycle.scheduleReset(at: done + server.settings.resetDelay) }
            return [WireDeviceOutput(bytes: ZephyrSerialFrameWriter.wireBytes(for: outcome.response), readyAt: done)]
        case .waitingForRequest, .recovery:
            // MCUboot sleeps through its reset wait: what comes then is never read.
            guard !cycle.isResetDue, let start = queue.admit(at: time), let outcome = recovery.handle(packet) else { return [] }
            if mode == .waitingForRequest {
                mode = .recovery  // bs_entry: any request keeps MCUboot in recovery
                windowEnds = nil
            }
            let done = queue.finish(startedAt: start, cost: outcome.cost)
            if outcome.resets { cycle.scheduleReset(at: done + settings.resetWait, advertises: false) }
            let framed = settings.rawProtocol ? outcome.response : ((try? SMPConsoleEncoder().wireBytes(for: outcome.response)) ?? [])
            return [WireDeviceOutput(bytes: framed, readyAt: done)]
        }
    }

    // MARK: - Time

    public var nextTimer: Duration? {
        [cycle.deadline, windowEnds, idleDeadline].compactMap { $0 }.min()
    }

    public func fireTimers(at time: Duration) -> [WireDeviceEvent] {
        if let deadline = idleDeadline, deadline <= time {
            idleDeadline = nil
            receiver.lineWentIdle()
        }
        if let end = windowEnds, end <= time {
            windowEnds = nil
            bootApplication(at: time)  // no request came in the window
            return []
        }
        switch cycle.due(at: time) {
        case .reset?:
            reboot(at: time)
            return [.reset(reason: "the device rebooted")]
        case .booted?:
            switch stage {
            case .mcuboot:
                if case let .waitForDFU(window) = settings.entrance {
                    mode = .waitingForRequest
                    windowEnds = time + window
                } else {
                    bootApplication(at: time)
                }
                return []
            case .application:
                mode = .application
                return (settings.applicationLog?.bootOutputs(at: time) ?? []).map(WireDeviceEvent.output)
            }
        case nil:
            return []
        }
    }

    public func powerCycle(at time: Duration) {
        reboot(at: time)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        queue.shift(by: offset)
        windowEnds = windowEnds.map { $0 + offset }
        idleDeadline = idleDeadline.map { $0 + offset }
    }

    /// RAM is lost; MCUboot starts.
    private func reboot(at time: Duration) {
        rebootCount += 1
        recovery.flash = flash
        recovery.reset()
        application = nil
        mode = .recovery
        receiver = .mcuboot(raw: settings.rawProtocol, lineLength: lineLength, maximumReceive: settings.maximumReceiveSize)
        queue = RequestQueue(capacity: 1)
        queue.reset(at: time)
        windowEnds = nil
        idleDeadline = nil
        stage = .mcuboot
        cycle.rebooted(at: time, silentFor: settings.recoveryBootTime)
    }

    /// MCUboot boots slot 0, swapping first what the trailers ask: silent for the swap and the
    /// application's start. With no valid image in slot 0 it stays in recovery.
    private func bootApplication(at time: Duration) {
        guard var slots = recovery.flash.slots else {
            mode = .recovery
            return
        }
        let action = slots.boot()
        recovery.flash.take(slots)
        var server = SMPServer(settings: settings.application, factoryImage: slots.primary)
        server.slots = slots
        application = server
        queue = RequestQueue(capacity: settings.application.bufferCount)
        queue.reset(at: time)
        receiver = .zephyr(settings.rawProtocol ? .raw(inputTimeout: nil) : .console, lineLength: lineLength,
                           bufferSize: settings.application.bufferSize)
        stage = .application
        cycle.rebooted(at: time, silentFor: settings.application.silence(after: action))
    }

    /// Which boot the power cycle's silence is: MCUboot's own start, or the application's.
    private enum Stage { case mcuboot, application }
    private var stage = Stage.mcuboot
}
