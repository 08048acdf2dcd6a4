import DFUEngine

/// Turns flash events into a progress bar (terminal) or plain log lines (pipes, CI).
final class ProgressPrinter {
    private let console: any Console
    private let interactive: Bool
    private var lastDecile = -1
    private var barShown = false

    init(console: any Console) {
        self.console = console
        self.interactive = console.isInteractive
    }

    func handle(_ event: FlashEvent) {
        switch event {
        case let .scanning(transport):
            line("scanning \(transport) for a device that matches the profile")
        case let .connecting(address):
            line("connecting to \(address)")
        case let .connected(address, mtu):
            line("connected to \(address), ATT MTU \(mtu)")
        case let .imageStarted(name, size, index, count):
            lastDecile = -1
            line("image \(index + 1)/\(count) '\(name)': \(size) bytes")
        case let .progress(image, done, total, elapsed):
            progress(image: image, done: done, total: total, elapsed: elapsed)
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
            line("image '\(name)' \(verified ? "verified by the device" : "sent (no checksum confirmed)")")
        }
    }

    func finish() {
        if barShown {
            console.errorInPlace("\n")
            barShown = false
        }
    }

    private func line(_ text: String) {
        finish()
        console.error(text)
    }

    private func progress(image: String, done: Int, total: Int, elapsed: Duration) {
        guard total > 0 else { return }
        let fraction = Double(done) / Double(total)
        let seconds = Double(elapsed / .seconds(1))
        let rate = seconds > 0 ? Double(done) / seconds / 1000 : 0
        if interactive {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let percent = Int(fraction * 100)
            console.errorInPlace("\r[\(bar)] \(percent)% \(done)/\(total) bytes \(String(format1: rate)) kB/s")
            barShown = true
        } else {
            let decile = Int(fraction * 10)
            guard decile != lastDecile else { return }
            lastDecile = decile
            console.error("progress '\(image)': \(decile * 10)% (\(done)/\(total) bytes, \(String(format1: rate)) kB/s)")
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
