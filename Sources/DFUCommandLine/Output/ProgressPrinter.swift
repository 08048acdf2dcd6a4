import DFUKit

/// Turns flash events into progress a person reads: on a terminal one line redrawn in place
/// (percent, bytes, transfer rate, elapsed, ETA); on a pipe a plain line at every tenth. The
/// words are `ProgressFormat`'s, the per-image accounting `TransferMeter`'s.
final class ProgressPrinter {
    private let console: any Console
    private let interactive: Bool
    private let clock: ProgressClock
    private var meter: TransferMeter?
    private var lastDecile = -1
    private var lineShown = false
    /// The transfer time over the images finished or under way, for the last line's rate.
    private var finishedTransferTime: Duration = .zero

    init(console: any Console, clock: ProgressClock = .wall) {
        self.console = console
        self.interactive = console.isInteractive
        self.clock = clock
    }

    func handle(_ event: FlashEvent) {
        switch event {
        case let .scanning(transport):
            line("scanning \(transport) for a device that matches the profile")
        case let .selected(_, reason):
            line("picked \(reason)")
        case let .connecting(address):
            line("connecting to \(address)")
        case let .connected(address, mtu):
            line("connected to \(address), ATT MTU \(mtu)")
        case let .linkGranted(grant):
            line(LinkGrantFormat.line(grant))
        case let .imageStarted(name, size, index, count):
            closeImage()
            meter = TransferMeter(image: name, total: size)
            lastDecile = -1
            line("image \(index + 1)/\(count) '\(name)': \(size) bytes")
        case let .transferStarted(image, offset, total, elapsed):
            if meter?.image != image { meter = TransferMeter(image: image, total: total) }
            let first = meter?.heldAtStart == nil
            meter?.started(offset: offset, at: elapsed)
            if first, let text = ProgressFormat.resuming(image: image, held: offset, total: total) { line(text) }
        case let .progress(image, done, total, elapsed):
            if meter?.image != image { meter = TransferMeter(image: image, total: total) }
            guard let progress = meter?.progressed(done: done, at: elapsed) else { return }
            draw(progress)
        case let .phase(name, change):
            switch change {
            case .entered: line("phase '\(name)'")
            case .completed: break
            case .alreadyDone: line("phase '\(name)': already done on the device")
            }
        case let .retrying(reason):
            line("retry: \(reason)")
        case let .rebooting(what):
            line("reboot: \(what)")
        case let .resuming(attempt, of, reason):
            line("\(reason); reconnecting to resume (\(attempt)/\(of))")
        case let .imageFinished(name, verified):
            if let progress = meter?.latest, let text = ProgressFormat.resumed(progress) { line(text) }
            closeImage()
            line("image '\(name)' \(verified ? "verified by the device" : "sent (no checksum confirmed)")")
        }
    }

    /// Ends a line drawn in place (before other output, and at the end).
    func finish() {
        if lineShown {
            console.errorInPlace("\n")
            lineShown = false
        }
    }

    /// The last line of a flash: what this command sent (not what the device already held),
    /// in how long, at what transfer rate, and the stage the device is in. The counts are the
    /// engine's (`FlashReport.bytes`, `bytesAlreadyOnDevice`); the transfer time is measured here.
    func summary(_ report: FlashReport) -> String {
        closeImage()
        return ProgressFormat.summary(sent: report.bytes, held: report.bytesAlreadyOnDevice, seconds: report.seconds,
                                      transferTime: finishedTransferTime, status: report.status.rawValue,
                                      holds: report.deviceHolds.map(\.rawValue), clock: clock)
    }

    private func closeImage() {
        if let progress = meter?.latest { finishedTransferTime += progress.transferTime }
        meter = nil
    }

    private func line(_ text: String) {
        finish()
        console.error(text)
    }

    private func draw(_ progress: TransferProgress) {
        if interactive {
            console.errorInPlace(ProgressFormat.terminalLine(progress, clock: clock))
            lineShown = true
        } else {
            let decile = ProgressFormat.decile(progress)
            guard decile != lastDecile else { return }
            lastDecile = decile
            console.error(ProgressFormat.plainLine(progress, clock: clock))
        }
    }
}

extension String {
    /// One decimal place, without Foundation's locale-dependent formatting.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
