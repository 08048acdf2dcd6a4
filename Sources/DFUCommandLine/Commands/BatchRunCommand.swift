import DFUKit
import DFULedger
import Dispatch
import Foundation

/// `dfukit batch run [LINE.yaml] [flags]`: a provisioning line.
struct BatchRunCommand: Command {
    static let name = "batch run"
    static let summary = "Flash many devices at once, with retries, post-flash checks and a durable ledger."
    static let usage = "dfukit batch run [LINE.yaml] [--profile P] [--package PKG] [--device TRANSPORT]... [--count N] "
        + "[--min-rssi DBM] [--name GLOB] [--timeout DURATION] [--concurrency K] [--retries N] [--lease DURATION] [--ledger URL] [--station NAME] [--line NAME] [--halt-when RULE] [--quarantine-after N] [--exit-when-halted] [--audit-key FILE] [--operator NAME] [--set NAME=VALUE]... [--json]"
    static let options: [OptionSpec] = [
        SharedOptions.profile("the devices' protocol"),
        OptionSpec("--package", value: "PKG", help: "the firmware package"),
        OptionSpec("--device", "-d", value: "TRANSPORT",
                   help: "the station's radios: hci:..., bluez:hciN or sim:NAME?fleet=N (e.g. sim:vendor-ctrlpt?fleet=64&fault-rate=0.1); "
                   + "repeat it, or list adapters (bluez:hci0,hci1), for several radios", repeatable: true),
        OptionSpec("--count", value: "N", help: "stop once N devices are done (default: every matching device)"),
    ] + SharedOptions.selection(for: "without 'devices:' in the line file") + [
        SharedOptions.timeout("bound on each attempt, e.g. 90s (default 15m)"),
        OptionSpec("--concurrency", "-j", value: "K", help: "devices flashed at once by each radio (default 1)"),
        OptionSpec("--retries", value: "N", help: "attempts after the first, per device (default 2)"),
        OptionSpec("--lease", value: "DURATION", help: "how long a claim lasts without a heartbeat, e.g. 2m (default 10m)"),
        OptionSpec("--ledger", value: "URL", help: "sqlite:PATH (default sqlite:dfukit-ledger.sqlite) or postgresql://..."),
        OptionSpec("--station", value: "NAME", help: "this station's name in the ledger (default: the host name)"),
        OptionSpec("--line", value: "NAME", help: "the line's name in the ledger: its stations share its halts "
                   + "(default: the line file's name, else the station's)"),
        OptionSpec("--halt-when", value: "RULE", help: "halt the line when 'failed >= K of last N' of its finished attempts "
                   + "(every station's) failed"),
        OptionSpec("--quarantine-after", value: "N", help: "quarantine a device after N failed attempts with the package "
                   + "(default: none)"),
        OptionSpec("--exit-when-halted", help: "on a halted line, end the run with exit 75 instead of waiting for a resume"),
        OptionSpec("--audit-key", value: "FILE", help: "sign each attempt's audit record with this station key "
                   + "(dfukit station keygen) and keep it in the ledger"),
        OptionSpec("--operator", value: "NAME", help: "who runs the line, in each audit record (default: $USER)"),
        SharedOptions.set("override a profile parameter"),
        SharedOptions.key("verify the package's signatures with this public key before any device (as the profile's signing-key is)"),
        SharedOptions.record("record each attempt to DIR/ADDRESS-ATTEMPT.dfurec (e.g. C0FFEE000001-1.dfurec; "
                                 + "on hci: also DIR/hci.btsnoop); DIR is created when missing", value: "DIR"),
        SharedOptions.json("print one JSON summary at the end"),
    ]
    static let discussion = """
        A line file (YAML) holds the same settings and more (see the README, "Provisioning lines");
        flags override it. Devices already done with this package (by sha256) in the ledger are
        skipped (skip-done: false flashes them again), so a rerun goes on where a stopped or killed
        run left off; skip-installed skips devices that already run the target firmware.
        The line is checked once before any device is touched, with the checks every way into
        DFUKit makes (the library's Preflight): the parameters (name, type, values, range), the
        package (checksums, kind, signatures with --key and the profile's signing-key, what the
        profile requires of its images), the station's name, then the line file's keys, each
        check's command and fields and every expression.
        Each device is claimed in the ledger for the lease (--lease, 'lease:'), renewed every third
        of it while the device is worked on; a station that cannot renew its claim in time stops
        writing to the device and abandons the attempt (recorded as cancelled, "claim-lost").
        A ledger that stays unreachable for 30 s of retries stops the batch: no new device is
        started, the running ones finish or are abandoned, and the exit status is 74.
        Line controls: with --halt-when 'failed >= K of last N' (or 'halt-when:'), after each finished
        attempt the station reads the line's last N finished attempts in the ledger (every station
        of the line, since its last resume); when K of them failed, the line is halted in the
        ledger. Every station of the line reads its state before each new device and each retry
        and starts none while it is halted; devices in flight finish. By default a station then
        waits, polling the ledger every 2 s, until an operator runs 'dfukit station resume'; with
        --exit-when-halted ('when-halted: exit') it ends with exit 75. With --quarantine-after N
        ('quarantine-after:'), a device whose failed attempts with the package reach N is
        quarantined: not retried, and claimed by no station until 'dfukit station release'.
        With --audit-key (or 'audit-key:'), each attempt's audit record is signed with the station's
        Ed25519 key and stored with the attempt (see 'dfukit station audit'); the key file is read
        and checked before any device is touched.
        A station with several radios: --device bluez:hci0,hci1, or --device once per radio
        ('device:' a list). Each device goes to one radio (the one that heard it strongest,
        within 6 dB the least loaded) and stays there; --concurrency is each radio's. A radio
        that fails (its adapter gone) fails only the devices waiting on it; the others go on.
        Ctrl-C or SIGTERM once: start no new device, let the running ones finish; twice: cancel
        them. The claims of devices not done are released either way.
        Exit codes:
          0   every device done (flashed, or skipped as done or already running the target)
          1   some device failed, or an attempt record was not confirmed by the ledger
          64  usage: a missing or malformed flag, a parameter the profile does not take (from a
              flag or the line file's set:), an empty station name, an audit key that cannot be read
              or is not an Ed25519 private key
          65  the line was refused before any device was touched: an error in the line file, the
              profile or the package, each printed as FILE:LINE:COL: error: MESSAGE
          69  the transport is unavailable
          74  the ledger cannot be opened, or stayed unreachable while the batch ran
          75  --exit-when-halted: the line is halted (resume it, then run again)
          130 stopped by SIGINT (Ctrl-C)
          143 stopped by SIGTERM
        """

    let line: LineConfiguration
    let json: Bool
    /// `--record DIR`: where each attempt is recorded.
    let recordDirectory: String?
    /// `--key`: a public key every package signature must verify with, before any device.
    let keyPath: String?
    /// The line file's errors: reported by `run` with exit 65, like those found against the profile.
    let lineFileErrors: ProfileDiagnostics?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.count <= 1 else { throw UsageError("give at most one line file", command: command) }
        var line = LineConfiguration()
        var lineFileErrors: ProfileDiagnostics?
        if let path = arguments.positionals.first {
            do {
                line = try LineFileLoader.load(path: path)
            } catch {
                lineFileErrors = error
            }
        }
        self.lineFileErrors = lineFileErrors
        if let value = arguments.value("--profile") { line.profile = value }
        if let value = arguments.value("--package") { line.package = value }
        if let values = arguments.values["--device"], !values.isEmpty { line.transports = values }
        if let value = arguments.value("--ledger") { line.ledger = value }
        if let value = arguments.value("--station") { line.station = value }
        if let value = arguments.value("--audit-key") { line.auditKey = value }
        if let value = arguments.value("--operator") { line.operatorName = value }
        if let value = arguments.value("--line") { line.line = value }
        if let text = arguments.value("--halt-when") {
            do {
                line.haltWhen = try Preflight.haltRule(text, option: "--halt-when")
            } catch {
                throw UsageError(error.message, command: command)
            }
        }
        if let value = try arguments.integer("--quarantine-after", in: 1...1000) { line.quarantineAfter = value }
        if arguments.flag("--exit-when-halted") { line.whenHalted = .exit }
        keyPath = arguments.value("--key")
        recordDirectory = arguments.value("--record")
        if let value = try arguments.integer("--count", in: 1...1_000_000) { line.count = value }
        let selection = try arguments.deviceSelection()
        if let value = selection.minimumRSSI { line.minimumRSSI = value }
        if let value = selection.namePattern { line.namePattern = value }
        if let timeout = try arguments.duration("--timeout") { line.deviceTimeout = timeout }
        if let value = try arguments.integer("--concurrency", in: 1...64) { line.concurrency = value }
        if let value = try arguments.integer("--retries", in: 0...100) { line.retries = value }
        if let text = arguments.value("--lease") {
            guard let lease = ProfileDuration.parse(text) else {
                throw UsageError("--lease must be a duration such as 90s or 2m", command: command)
            }
            if let problem = LineConfiguration.leaseProblem(lease) { throw UsageError("--lease \(problem)", command: command) }
            line.lease = lease
        }
        for (name, value) in try ProfileCommandRunner.keyValues(arguments.values["--set"] ?? [], command: command) {
            line.parameters[name] = value
        }
        guard lineFileErrors != nil || line.profile != nil else { throw UsageError("missing the profile (--profile or 'profile:' in the line file)", command: command) }
        guard lineFileErrors != nil || line.package != nil else { throw UsageError("missing the package (--package or 'package:' in the line file)", command: command) }
        guard lineFileErrors != nil || !line.transports.isEmpty else { throw UsageError("missing the transport (--device or 'device:' in the line file)", command: command) }
        self.line = line
        json = arguments.flag("--json")
    }

    func run(_ console: any Console) async -> Int32 {
        if let lineFileErrors {
            console.error(lineFileErrors.description + "\nno device was touched.")
            // The line file was not read: its station and lease are not known.
            printRefusal(console, ErrorJSON.object(kind: DFUKitError.Kind.profile.rawValue,
                                                   message: lineFileErrors.description), lineRead: false)
            return ExitCode.dataError
        }
        guard let profileName = line.profile, let packagePath = line.package, !line.transports.isEmpty else {
            return ExitCode.usage
        }
        let profile: Profile
        let package: FirmwarePackage
        let packageSHA256: String
        do {
            profile = try ProfileLibrary.standard().load(profileName)
        } catch {
            console.error(error.description)
            printRefusal(console, ErrorJSON.object(kind: DFUKitError.Kind.profile.rawValue, message: error.description))
            return ExitCode.dataError
        }
        do {
            package = try FirmwarePackage.open(path: packagePath)
            packageSHA256 = SHA256.digest(Array(try Data(contentsOf: URL(fileURLWithPath: packagePath)))).hexString
        } catch {
            console.error("error: \(error)\nno device was touched.")
            printRefusal(console, ErrorJSON.object(kind: DFUKitError.Kind.package.rawValue, message: "\(error)"))
            return ExitCode.dataError
        }
        // Every check that needs no device, once for the line, as DFUKit.batch makes them.
        var request = BatchRequest(profile: profile, package: package, transports: line.transports)
        request.line = self.line
        request.recordDirectory = recordDirectory
        if let keyPath {
            do {
                request.publicKeyPEM = try String(contentsOfFile: keyPath, encoding: .utf8)
            } catch {
                let message = "cannot read the public key \(keyPath): \(error.localizedDescription)"
                console.error("error: \(message)\nno device was touched.")
                printRefusal(console, ErrorJSON.object(kind: DFUKitError.Kind.package.rawValue, message: message),
                             packageSHA256: packageSHA256)
                return ExitCode.dataError
            }
        }
        let plan: BatchPlan
        do {
            plan = try Preflight.batch(request)
        } catch {
            Refusal.print(error, console: console, command: "dfukit \(Self.name)")
            printRefusal(console, ErrorJSON.object(error), packageSHA256: packageSHA256)
            return error.exitCode
        }
        for note in plan.notes { console.error(note.description) }
        let line = plan.line
        let radios: [BatchRadio]
        do {
            radios = try plan.radioSources()
        } catch {
            Refusal.print(error, console: console, command: "dfukit \(Self.name)")
            printRefusal(console, ErrorJSON.object(error), packageSHA256: packageSHA256)
            return error.exitCode
        }
        // The radios agree on their clock (the preflight and the runner refuse a mix).
        let simulated = radios.contains { $0.source.usesVirtualTime }
        let ledgerURL = line.ledger ?? "sqlite:dfukit-ledger.sqlite"
        let station = line.station ?? ProcessInfo.processInfo.hostName
        let ledger: any Ledger
        do {
            ledger = try await LedgerURL(parsing: ledgerURL).open(LedgerOptions(lease: line.lease))
            // Claims this station held when it last stopped (a crash, kill -9) are taken back.
            let taken = try await ledger.releaseEarlierClaims(station: station)
            if taken > 0 { console.error("took back \(taken) device(s) this station held when it last stopped") }
        } catch {
            console.error("error: \(error)")
            printRefusal(console, ErrorJSON.object(kind: ErrorKindName.ledger, message: "\(error)"), packageSHA256: packageSHA256,
                         ledgerError: "\(error)", clock: simulated ? .simulated : .wall, radios: plan.radios)
            return error.kind == .invalidURL ? ExitCode.usage : ExitCode.ioError
        }
        let operatorName = line.operatorName ?? ProcessInfo.processInfo.environment["USER"]
        let adapter = LedgerBatchAdapter(ledger: ledger, packageSHA256: packageSHA256, station: station, profile: profile.name,
                                         line: line.line ?? station, includingDone: !line.skipDone,
                                         audit: AuditRecordBuilder(plan: plan, operatorName: operatorName))
        let view = BatchProgressView(console: console, slots: line.concurrency * radios.count, radios: radios.count)
        let feed = LiveFeed(ledger: ledger, station: station, line: line.line ?? station, packageSHA256: packageSHA256,
                            radios: radios.map(\.name), console: console) { device, attempt in
            await adapter.attemptNumber(device: device, attempt: attempt)
        }
        await feed.start()
        let runner = plan.runner(radios: radios, ledger: adapter, ledgerRetry: Self.ledgerRetry()) { event in
            view.handle(event)
            feed.handle(event)
        }
        let (outcome, signal) = await BatchStopSignals.run(runner)
        view.finish()
        await feed.finish()
        await ledger.close()
        let summary: BatchSummary
        switch outcome {
        case let .success(value): summary = value
        case let .failure(error):
            console.error("error: \(error)")
            printRefusal(console, ErrorJSON.object(error), packageSHA256: packageSHA256,
                         clock: simulated ? .simulated : .wall, radios: plan.radios)
            return ExitCode.of(error)
        }
        var text = "\(summary.devices) device(s): \(summary.succeeded) flashed, \(summary.failed) failed, "
            + (summary.cancelled > 0 ? "\(summary.cancelled) cancelled, " : "")
            + "\(summary.skipped) skipped (done before, running the target already, or claimed by another station); "
            + "\(summary.attempts) attempt(s) in \(String(format1: summary.seconds)) s"
            + (simulated ? " (simulated)" : "") + "; ledger \(ledger.location)"
        if summary.radios.count > 1 { text += "\n" + Self.radioLines(summary.radios) }
        if let signal { text += "\nstopped by \(signal.name) before every device was done; claims of devices not done were released" }
        if summary.claimsLost > 0 { text += "\n\(summary.claimsLost) device(s) abandoned: this station lost its claim on them" }
        if summary.halts > 0 { text += "\nthis station halted line \(line.line ?? station) (\(summary.halts) time(s))" }
        if summary.quarantined > 0 { text += "\n\(summary.quarantined) device(s) quarantined" }
        if let halt = summary.lineHalt {
            text += "\nstopped: \(halt); resume it with: dfukit station resume --ledger \(ledger.location) --line \(halt.line)"
        }
        if let failure = summary.ledgerFailure {
            text += "\nstopped: the ledger is unreachable: \(failure)"
        }
        if summary.unconfirmedRecords > 0 {
            text += "\n\(summary.unconfirmedRecords) attempt record(s) NOT CONFIRMED by the ledger (see the lines above): "
                + "they may be missing from it; their devices are not counted as done"
        }
        console.error(text)
        if json {
            var object = summaryObject(station: station, packageSHA256: packageSHA256, lineRead: true)
            object.merge([
                "devices": summary.devices, "succeeded": summary.succeeded, "failed": summary.failed,
                "cancelled": summary.cancelled,
                "skipped": summary.skipped, "attempts": summary.attempts, "seconds": summary.seconds,
                "clock": simulated ? "simulated" : "wall", "stopped_early": summary.stoppedEarly,
                "stopped": signal != nil || summary.ledgerFailure != nil,
                "claims_lost": summary.claimsLost, "unconfirmed_records": summary.unconfirmedRecords,
                "signal": signal?.name ?? NSNull(), "ledger_error": summary.ledgerFailure ?? NSNull(),
                "line_halted": summary.lineHalt?.description ?? NSNull(), "halts": summary.halts,
                "quarantined": summary.quarantined,
                "radios": Self.radioObjects(plan.radios, summary.radios),
            ]) { $1 }
            console.out(JSONOutput.line(object))
        }
        return Self.exitCode(summary, signal: signal)
    }

    /// The `--json` summary's keys (`dfukit schema output batch-run`), for a run that touched no
    /// device: every count 0, null where it cannot tell.
    private func summaryObject(station: String?, packageSHA256: String?, lineRead: Bool) -> [String: Any] {
        let lease = lineRead ? Double(line.lease.components.seconds) + Double(line.lease.components.attoseconds) / 1e18 : nil
        return [
            "devices": 0, "succeeded": 0, "failed": 0, "cancelled": 0, "skipped": 0, "attempts": 0, "seconds": 0,
            "clock": NSNull(), "stopped_early": false, "stopped": false, "claims_lost": 0, "unconfirmed_records": 0,
            "station": station ?? NSNull(), "package_sha256": packageSHA256 ?? NSNull(), "lease_seconds": lease ?? NSNull(),
            "signal": NSNull(), "ledger_error": NSNull(), "error": NSNull(),
            "line": (lineRead ? line.line ?? station : nil).map { $0 as Any } ?? NSNull(), "line_halted": NSNull(), "halts": 0,
            "quarantined": 0, "radios": NSNull(),
        ]
    }

    /// With `--json`, a run refused or stopped before its summary still prints one, with `error`.
    private func printRefusal(_ console: any Console, _ error: [String: Any], lineRead: Bool = true,
                              packageSHA256: String? = nil, ledgerError: String? = nil, clock: ProgressClock? = nil,
                              radios: [BatchRadioPlan]? = nil) {
        guard json else { return }
        let station = lineRead ? line.station ?? ProcessInfo.processInfo.hostName : nil
        var object = summaryObject(station: station, packageSHA256: packageSHA256, lineRead: lineRead)
        object["error"] = error
        if let ledgerError { object["ledger_error"] = ledgerError }
        if let clock { object["clock"] = clock == .simulated ? "simulated" : "wall" }
        if let radios { object["radios"] = Self.radioObjects(radios, radios.map { BatchRadioSummary(name: $0.name) }) }
        console.out(JSONOutput.line(object))
    }

    /// `--json`'s `radios`: each radio's name, device string and share of the run.
    static func radioObjects(_ radios: [BatchRadioPlan], _ summaries: [BatchRadioSummary]) -> [[String: Any]] {
        zip(radios, summaries).map { radio, summary in
            ["name": summary.name, "device": radio.device, "devices": summary.devices, "succeeded": summary.succeeded,
             "failed": summary.failed, "cancelled": summary.cancelled, "skipped": summary.skipped,
             "attempts": summary.attempts, "failure": summary.failure ?? NSNull()]
        }
    }

    /// The text summary's lines for a station with several radios: one per radio.
    static func radioLines(_ radios: [BatchRadioSummary]) -> String {
        radios.map { radio in
            "  \(radio.name): \(radio.devices) device(s): \(radio.succeeded) flashed, \(radio.failed) failed, "
                + (radio.cancelled > 0 ? "\(radio.cancelled) cancelled, " : "")
                + "\(radio.skipped) skipped; \(radio.attempts) attempt(s)"
                + (radio.failure.map { "; FAILED: \($0)" } ?? "")
        }.joined(separator: "\n")
    }

    /// How long ledger calls are retried before the ledger counts as unreachable: 30 s, or
    /// `DFUKIT_LEDGER_GIVE_UP` (a duration such as `2s`; for tests that cut the ledger off).
    static func ledgerRetry(environment: [String: String] = ProcessInfo.processInfo.environment) -> LedgerRetryPolicy {
        var policy = LedgerRetryPolicy()
        if let text = environment["DFUKIT_LEDGER_GIVE_UP"], let bound = ProfileDuration.parse(text) {
            policy.giveUpAfter = bound
        }
        return policy
    }

    /// A signal first (the operator stopped the batch), then an unreachable ledger, then a halted
    /// line (`--exit-when-halted`), then the devices.
    static func exitCode(_ summary: BatchSummary, signal: BatchStopSignals.Signal?) -> Int32 {
        if let signal { return signal.exitCode }
        if summary.ledgerFailure != nil { return ExitCode.ioError }
        if summary.lineHalt != nil { return ExitCode.lineHalted }
        return summary.failed == 0 && summary.cancelled == 0 && summary.unconfirmedRecords == 0 ? ExitCode.success : ExitCode.failure
    }
}
