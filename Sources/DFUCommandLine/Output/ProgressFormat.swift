/// Whose clock a run's times are on: the wall clock, or the simulator's virtual clock (a
/// `sim:` device without `realtime=1`), whose seconds are marked "(simulated)".
enum ProgressClock: Sendable, Equatable {
    case wall
    case simulated

    /// " (simulated)" after a time on the virtual clock.
    var suffix: String { self == .simulated ? " (simulated)" : "" }
}

/// Where one image's transfer stands, as a person reads it.
struct TransferProgress: Sendable, Equatable {
    var image: String
    /// Bytes of the image the device holds now.
    var done: Int
    var total: Int
    /// What the device held when this command started moving the image (a resumed upload).
    var heldAtStart: Int
    /// Bytes this command moved, without what the device already held.
    var sentThisRun: Int
    /// This image's transfer time so far: from its own start, without connecting, discovery or
    /// earlier images.
    var transferTime: Duration
    /// Since the command started.
    var elapsed: Duration

    /// Bytes per second over this image's transfer time, nil before any time passed.
    var rate: Double? {
        let seconds = transferTime.seconds
        return seconds > 0 ? Double(sentThisRun) / seconds : nil
    }

    /// Time left at the current rate; zero when done, nil while the rate is unknown.
    var remaining: Duration? {
        guard done < total else { return .zero }
        guard let rate, rate > 0 else { return nil }
        return .milliseconds(Int64((Double(total - done) / rate * 1000).rounded()))
    }
}

/// The words and numbers of progress output, without I/O (golden-tested).
enum ProgressFormat {
    /// "40% 40,000/100,000 bytes, 12.5 kB/s, elapsed 0:04, ETA 0:05"
    static func status(_ progress: TransferProgress) -> String {
        let rate = progress.rate.map { kilobytesPerSecond($0) } ?? "-- kB/s"
        let eta = progress.remaining.map(clock) ?? "--:--"
        return "\(percent(progress.done, of: progress.total))% \(grouped(progress.done))/\(grouped(progress.total)) bytes, "
            + "\(rate), elapsed \(clock(progress.elapsed)), ETA \(eta)"
    }

    /// The terminal's line, redrawn in place: back to the line's start, the line cleared, then
    /// the image and its status (no newline).
    static func terminalLine(_ progress: TransferProgress, clock: ProgressClock) -> String {
        "\r\u{1B}[2K'\(progress.image)' " + status(progress) + clock.suffix
    }

    /// A line for logs and pipes.
    static func plainLine(_ progress: TransferProgress, clock: ProgressClock) -> String {
        "progress '\(progress.image)': " + status(progress) + clock.suffix
    }

    /// Which tenth of the transfer a plain line is printed at (0...10).
    static func decile(_ progress: TransferProgress) -> Int {
        progress.total > 0 ? min(10, progress.done * 10 / progress.total) : 10
    }

    /// When a transfer starts on a device that already holds part of the image.
    static func resuming(image: String, held: Int, total: Int) -> String? {
        guard held > 0 else { return nil }
        return "resuming '\(image)' at \(percent(held, of: total))%: the device already holds \(grouped(held)) of "
            + "\(grouped(total)) bytes"
    }

    /// At the end of an image whose upload was resumed: "resumed at 40%: sent 60,000 of
    /// 100,000 bytes this run".
    static func resumed(_ progress: TransferProgress) -> String? {
        guard progress.heldAtStart > 0 else { return nil }
        return "resumed at \(percent(progress.heldAtStart, of: progress.total))%: sent \(grouped(progress.sentThisRun)) "
            + "of \(grouped(progress.total)) bytes this run"
    }

    /// The last line of a flash: "97.7 KiB sent in 3.4 s (simulated), transfer 46.2 kB/s:
    /// verified: the device holds unconfirmed". `sent`: what this command moved (not what the
    /// device already `held`); `holds`: the stage the device is in, when the profile says.
    /// Nothing sent: "0 bytes sent in 0.4 s: the device already held the image (48.0 KiB): verified".
    static func summary(sent: Int, held: Int, seconds: Double, transferTime: Duration, status: String,
                        holds: [String] = [], clock: ProgressClock) -> String {
        var text: String
        if sent == 0 {
            text = "0 bytes sent in \(String(format1: seconds)) s" + clock.suffix
            if held > 0 { text += ": the device already held the image (\(kibibytes(held)))" }
        } else {
            text = "\(kibibytes(sent)) sent in \(String(format1: seconds)) s" + clock.suffix
            if held > 0 { text += " (the device already held \(kibibytes(held)))" }
            if transferTime > .zero { text += ", transfer " + kilobytesPerSecond(Double(sent) / transferTime.seconds) }
        }
        text += ": " + status
        if !holds.isEmpty { text += ": the device holds " + holds.joined(separator: " or ") }
        return text
    }

    // MARK: - Numbers

    /// Whole percent, rounded down (100 only when done).
    static func percent(_ part: Int, of whole: Int) -> Int {
        whole > 0 ? min(100, part * 100 / whole) : 100
    }

    /// 1234567 -> "1,234,567" (locale-independent).
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// "12.5 kB/s" (1 kB = 1000 bytes).
    static func kilobytesPerSecond(_ bytesPerSecond: Double) -> String {
        String(format1: bytesPerSecond / 1000) + " kB/s"
    }

    /// "97.7 KiB".
    static func kibibytes(_ bytes: Int) -> String {
        String(format1: Double(bytes) / 1024) + " KiB"
    }

    /// "0:04", "12:30", "1:02:03" (whole seconds, rounded down).
    static func clock(_ duration: Duration) -> String {
        let total = max(0, Int(duration.components.seconds))
        let hours = total / 3600, minutes = total / 60 % 60, seconds = total % 60
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(seconds))" : "\(minutes):\(twoDigits(seconds))"
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
