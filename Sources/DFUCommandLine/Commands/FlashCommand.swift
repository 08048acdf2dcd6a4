import DFUKit
import Foundation

/// `dfukit flash --profile NAME|FILE --device DEVICE PKG [--json]`.
struct FlashCommand: Command {
    static let name = "flash"
    static let summary = "Flash a firmware package to a device with a profile."
    static let usage = "dfukit flash --profile NAME|FILE --device TRANSPORT[/ADDRESS] PKG [--json]"
    static let options: [OptionSpec] = [
        SharedOptions.profile(),
        SharedOptions.device(),
        SharedOptions.key("verify the package's signatures with this public key before sending anything"),
        SharedOptions.set(),
        OptionSpec("--write", value: "ROLE=TYPE",
                   help: "write type for a characteristic role: with-response | without-response", repeatable: true),
        OptionSpec("--mode", value: "MODE",
                   help: "the profile's upgrade mode, the same as --set mode=MODE (mcumgr-smp: test-and-confirm, "
                       + "confirm-only, test-only, upload-only)"),
    ] + SharedOptions.selection(for: "without /ADDRESS") + [
        SharedOptions.timeout("bound on the whole attempt, e.g. 90s (default: none)"),
        OptionSpec("--trace", value: "FILE", help: "hci: every HCI packet as btsnoop; serial:, udp:, sim:...?link=: the wire's bytes as pcap"),
        SharedOptions.record(),
        OptionSpec("--force", help: "send a package of a kind the profile does not list in its 'packages'"),
        SharedOptions.json("print one JSON object with the result at the end"),
    ]
    static let discussion = """
        Without /ADDRESS the strongest advertising device that matches the profile (and --name,
        --min-rssi) is used, and the reason printed; a profile without a match rule needs /ADDRESS.
        Transports: sim:NAME[?key=value&...] (simulated device; keys: mtu, interval, packets-per-event,
        phy (1M, 2M, coded-s2, coded-s8), data-length, event-ms, buffers, address, name, erase-ms, write-ns-per-byte, fault=disconnect-after:BYTES |
        drop-notification:N | corrupt-notification:N | busy:N | unresponsive-after:BYTES).
        Before connecting, the checks every way into DFUKit makes (the library's Preflight): every
        --set value against the profile's parameter, its type, values and range (exit 64); the
        package's checksums, its signatures (with --key and the profile's signing-key), what the
        profile requires of its images, and its kind: one the profile does not take ('packages' in
        the profile) is refused (exit 65) unless --force.
        Exit: 0 verified, 1 the update failed on the device, 64 usage, 65 bad profile or package (or
        one the profile does not take), 69 transport unavailable, 130 Ctrl-C, 143 SIGTERM (the last line says what the
        device holds).
        """

    let profileName: String
    let device: DeviceSpecifier
    let deviceText: String
    let packagePath: String
    let json: Bool
    let settings: [ParameterSetting]
    /// `--mode`: `--set mode=MODE`; the profile says which modes there are.
    let mode: String?
    let writeTypes: [String: GATTWriteType]
    let force: Bool
    let keyPath: String?
    let traceFile: String?
    /// `--record`: where the session is recorded.
    let recordFile: String?
    /// `--name`, `--min-rssi`: filters for a device found by scanning.
    let selection: DeviceSelection
    /// `--timeout`: the bound on the whole attempt.
    let attemptTimeout: Duration?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        profileName = try arguments.requiredValue("--profile")
        deviceText = try arguments.requiredValue("--device")
        device = try DeviceSpecifier(parsing: deviceText, command: "dfukit \(Self.name)")
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "name the package to flash" : "name exactly one package",
                             command: command)
        }
        packagePath = arguments.positionals[0]
        json = arguments.flag("--json")
        keyPath = arguments.value("--key")
        traceFile = arguments.value("--trace")
        recordFile = arguments.value("--record")
        force = arguments.flag("--force")
        settings = try ParameterSetting.parse(arguments.values["--set"] ?? [], command: command)
        mode = arguments.value("--mode")
        var writeTypes: [String: GATTWriteType] = [:]
        for setting in arguments.values["--write"] ?? [] {
            let (role, value) = try Self.keyValue(setting, option: "--write", command: command)
            guard let type = GATTWriteType(rawValue: value) else {
                throw UsageError("--write \(setting): the type is with-response or without-response", command: command)
            }
            writeTypes[role] = type
        }
        self.writeTypes = writeTypes
        selection = try arguments.deviceSelection()
        attemptTimeout = try arguments.duration("--timeout")
    }

    private static func keyValue(_ text: String, option: String, command: String) throws(UsageError) -> (String, String) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw UsageError("\(option) takes NAME=VALUE, not '\(text)'", command: command)
        }
        return (parts[0], parts[1])
    }

    /// The library's request for this command line: the same one `DFUKit.flash` takes, so the
    /// preflight refuses what it refuses with the same words.
    private func request(profile: Profile, package: FirmwarePackage) throws(DFUKitError) -> FlashRequest {
        var request = FlashRequest(package: package, profile: profile, device: deviceText)
        var parameters = ParameterSetting.values(settings)
        if let mode { parameters["mode"] = .text(mode) }
        request.options = FlashOptions(parameters: parameters, writeTypes: writeTypes, selection: selection,
                                       attemptTimeout: attemptTimeout)
        request.force = force
        request.traceFile = traceFile
        request.recordFile = recordFile
        if let keyPath {
            do {
                request.publicKeyPEM = try String(contentsOfFile: keyPath, encoding: .utf8)
            } catch {
                throw DFUKitError(kind: .package, message: "cannot read the public key \(keyPath): \(error.localizedDescription)"
                                  + "\nnothing was sent to the device.")
            }
        }
        return request
    }

    func run(_ console: any Console) async -> Int32 {
        let profile: Profile
        let package: FirmwarePackage
        do {
            profile = try ProfileLibrary.standard().load(profileName)
        } catch {
            console.error(error.description)
            printEarlyFailure(console, error: ErrorJSON.object(kind: "profile", message: error.description))
            return ExitCode.dataError
        }
        do {
            package = try FirmwarePackage.open(path: packagePath)
        } catch {
            console.error("error: \(error)\nnothing was sent to the device.")
            printEarlyFailure(console, error: ErrorJSON.object(kind: "package", message: "\(error)"))
            return ExitCode.dataError
        }
        let plan: FlashPlan
        do {
            var places = ParameterSetting.places(settings)
            if let mode { places["mode"] = "--mode \(mode)" }
            plan = try Preflight.flash(try request(profile: profile, package: package), places: places)
        } catch {
            Refusal.print(error, console: console, command: "dfukit \(Self.name)")
            printEarlyFailure(console, error: ErrorJSON.object(error))
            return error.exitCode
        }
        for note in plan.notes { console.error(note.description) }
        let clock: ProgressClock = plan.scheme.usesSimulatedClock(target: plan.locator.target) ? .simulated : .wall
        let (outcome, interruption) = await InterruptHandling.run { () async -> (report: FlashReport?, summary: String, error: DFUKitError?) in
            let printer = ProgressPrinter(console: console, clock: clock)
            do throws(DFUKitError) {
                let report = try await DFUKit.run(plan) { printer.handle($0) }
                printer.finish()
                return (report, printer.summary(report), nil)
            } catch {
                printer.finish()
                return (error.report, "", error)
            }
        }
        guard let report = outcome.report else {
            // The transport could not be opened: nothing was sent.
            let error = outcome.error ?? DFUKitError(kind: .transport, message: "the transport could not be opened")
            Refusal.print(error, console: console, command: "dfukit \(Self.name)")
            printEarlyFailure(console, error: ErrorJSON.object(error))
            return interruption?.exitCode ?? error.exitCode
        }
        // What proved the stage the device is in, or that nothing could; the last line says the stage.
        if let evidence = report.evidence { console.error("evidence: \(evidence)") }
        if let error = report.error {
            console.error("error: \(error)")
        } else {
            console.error(outcome.summary)
        }
        if json { console.out(Self.json(report, clock: clock)) }
        if let interruption {
            console.error(InterruptionSummary.text(interruption, report: report))
            return interruption.exitCode
        }
        switch report.status {
        case .verified, .completed: return ExitCode.success
        case .failed: return report.error.map(ExitCode.of) ?? ExitCode.failure
        }
    }

    /// With `--json`, a failure before the flash started still prints one result object
    /// (`dfukit schema output flash`).
    private func printEarlyFailure(_ console: any Console, error: [String: Any]) {
        guard json else { return }
        let object: [String: Any] = [
            "status": "failed", "bytes": 0, "seconds": 0, "bytes_per_second": 0, "profile": profileName,
            "device": "\(device.scheme):\(device.target)", "retries": 0, "resumes": 0, "error": error,
            // Nothing is known of the device: the keys every outcome has, unknown.
            "address": NSNull(), "clock": NSNull(), "bytes_already_on_device": NSNull(), "not_sent": NSNull(),
            "device_holds": NSNull(), "phases_done": NSNull(), "evidence": NSNull(), "link": NSNull(),
            "transfer_seconds": NSNull(),
        ]
        console.out(Self.render(object))
    }

    static func json(_ report: FlashReport, clock: ProgressClock) -> String {
        var object: [String: Any] = [
            "status": report.status.rawValue,
            "bytes": report.bytes,
            "seconds": report.seconds,
            "bytes_per_second": report.bytesPerSecond,
            "profile": report.profile,
            "device": report.device,
            "retries": report.retries,
            "resumes": report.resumes,
            "clock": clock == .simulated ? "simulated" : "wall",
        ]
        // Every outcome has the same keys (`dfukit schema output flash`); null where the run
        // cannot tell (no address chosen, no transfer, no connection, no error), [] where there is
        // nothing (a profile without phases).
        object["bytes_already_on_device"] = report.bytesAlreadyOnDevice
        object["not_sent"] = orNull(report.notSent)
        object["address"] = orNull(report.address)
        object["transfer_seconds"] = orNull(report.transferSeconds)
        object["device_holds"] = report.deviceHolds.map(\.rawValue)
        object["phases_done"] = report.phasesDone
        object["evidence"] = orNull(report.evidence)
        object["link"] = orNull(report.link.map(LinkGrantFormat.json))
        object["error"] = orNull(report.error.map(ErrorJSON.object))
        return render(object)
    }

    /// A JSON value, or null.
    private static func orNull(_ value: (some Any)?) -> Any { value.map { $0 as Any } ?? NSNull() }

    static func render(_ object: [String: Any]) -> String {
        JSONOutput.line(object)
    }
}
