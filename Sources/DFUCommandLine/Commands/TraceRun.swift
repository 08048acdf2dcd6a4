import DFUKit
import DFUTrace

/// One `dfukit profile trace`: the flash session over a `TracingTransport`, its events printed
/// as they happen, and the outcome.
struct TraceRun: Sendable {
    var profile: Profile
    var images: [FlashImage]
    var address: DeviceAddress?
    var options: FlashOptions
    /// `virtual` (the generic device), `simulated` (sim:) or `wall` (a radio).
    var clock: String
    var generic: Bool
    var json: Bool

    func run(over inner: any GATTTransport, console: any Console) async -> Int32 {
        let printer: any TracePrinter = json ? TraceJSONPrinter(console: console) : TraceTextPrinter(console: console)
        printer.begin(TraceHeader(profile: profile.name, profilePath: profile.path, device: inner.name, clock: clock,
                                  images: images.map { ($0.name, $0.data.count) }))
        let transport = TracingTransport(inner, catalog: MessageCatalog(profile: profile)) { printer.print($0) }
        let session = FlashSession(profile: profile, images: images, transport: transport, address: address,
                                   options: options) { event in
            if let note = TraceNotes.text(event) { printer.print(TraceEvent(time: transport.now, kind: .note(note))) }
        }
        let report = await session.run()
        printer.end(report, generic: generic)
        switch report.status {
        case .verified, .completed: return ExitCode.success
        case .failed: return report.error.map(ExitCode.of) ?? ExitCode.failure
        }
    }
}

/// What the engine reports between messages, as trace notes (progress is left out: the
/// messages show it).
enum TraceNotes {
    static func text(_ event: FlashEvent) -> String? {
        switch event {
        case let .scanning(transport): return "scanning (\(transport))"
        case let .selected(_, reason): return "picked \(reason)"
        case .connecting, .connected, .linkGranted, .progress, .transferStarted: return nil
        case let .imageStarted(name, size, index, count): return "image '\(name)' (\(size) bytes), \(index + 1) of \(count)"
        case let .phase(name, change):
            switch change {
            case .entered: return "phase '\(name)' entered"
            case .completed: return "phase '\(name)' completed"
            case .alreadyDone: return "phase '\(name)' skipped: already done on the device"
            }
        case let .retrying(reason): return "retrying: \(reason)"
        case let .rebooting(reason): return "reboot: \(reason)"
        case let .resuming(attempt, total, reason): return "resuming (attempt \(attempt) of \(total)): \(reason)"
        case let .imageFinished(name, verified): return "image '\(name)' finished" + (verified ? ", verified" : "")
        }
    }
}
