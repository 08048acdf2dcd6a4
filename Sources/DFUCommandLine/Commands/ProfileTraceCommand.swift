import DFUKit
import DFUTrace

/// `dfukit profile trace PROFILE PACKAGE [--device D] [--mtu N] [--set NAME=VALUE]... [--json]`:
/// runs a profile's procedure and prints every message both ways, read by the profile, with the
/// exact bytes of each ATT write and notification and the link time.
struct ProfileTraceCommand: Command {
    static let name = "profile trace"
    static let summary = "Run a profile's procedure and print every message both ways, decoded, with its exact bytes."
    static let usage = "dfukit profile trace PROFILE PACKAGE [--device DEVICE] [--mtu N] [--set NAME=VALUE]... "
        + "[--answer COMMAND.FIELD=EXPR]... [--json]"
    static let options: [OptionSpec] = [
        OptionSpec("--device", "-d", value: "DEVICE",
                   help: "TRANSPORT[/ADDRESS] (sim:, hci:, bluez:); default: a generic device made from the profile"),
        OptionSpec("--mtu", value: "N", help: "ATT_MTU of the generic device or of a sim: device (23...517)"),
        OptionSpec("--set", value: "NAME=VALUE", help: "override a profile parameter (e.g. prn=12)", repeatable: true),
        OptionSpec("--answer", value: "COMMAND.FIELD=EXPR",
                   help: "what the generic device answers in a field (e.g. data.next_offset='request.offset + len(request.bytes)')",
                   repeatable: true),
        OptionSpec("--json", help: "print one JSON object per line (JSON Lines), one per event"),
    ]
    static let discussion = """
        Each ATT write and notification is printed with its time on the link clock, its direction
        (-> written, <- notified), the characteristic and its exact bytes; each message those bytes
        make (reassembled by the characteristic's framing, a length-only header stripped) follows,
        read by the profile: which command's request or response, or which notification, its named
        fields, and its status by the profile's codes. Phases, retries, reboots and resumes are
        printed between them. The last line says whether the procedure ran to its end, or where it
        stopped and why.
        Without --device, the procedure runs against a generic device made from the profile: it
        answers each request with the response the profile describes (constant fields as declared,
        status fields with a success value, fields the response's match ties to the request chosen
        so it holds, other fields zero, fields named max... 4096, the keys the profile reads from a
        CBOR body), on a virtual clock. A check or expect over what only a real device knows (an
        offset, a checksum) stops it: the trace up to there is what the profile sends. --answer
        says what such a field holds; its expression may use `request` (the request answered, an
        anonymous CBOR body as request.cbor) and the last request of each command (start.crc32):
          --answer 'data.next_offset=request.offset + len(request.bytes)'
          --answer 'upload.body.off=request.cbor.off + len(request.cbor.data)' 
        --json prints JSON Lines: {"event": "trace", ...} first, then one object per event (value,
        message, connecting, connected, subscribed, disconnected, garbled, note), {"event": "end",
        ...} last.
        Exit: 0 the procedure ran to its end, 1 it stopped on the device's side, 64 usage,
        65 bad profile or package, 69 transport unavailable.
        """

    let profileName: String
    let packagePath: String
    let device: DeviceSpecifier?
    let mtu: Int?
    let json: Bool
    let settings: [ParameterSetting]
    let rules: [AnswerRule]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.count == 2 else {
            throw UsageError("name a profile and a package (\(arguments.positionals.count) argument"
                             + (arguments.positionals.count == 1 ? "" : "s") + " given)", command: command)
        }
        profileName = arguments.positionals[0]
        packagePath = arguments.positionals[1]
        json = arguments.flag("--json")
        if let text = arguments.value("--mtu") {
            guard let value = Int(text), (23...517).contains(value) else {
                throw UsageError("--mtu is an ATT_MTU from 23 to 517, not '\(text)'", command: command)
            }
            mtu = value
        } else {
            mtu = nil
        }
        var device = try arguments.value("--device").map { (text) throws(UsageError) in try DeviceSpecifier(parsing: text, command: command) }
        if let mtu, let given = device {
            guard given.scheme == "sim" else {
                throw UsageError("--mtu applies to the generic device and sim: devices; a radio link negotiates its MTU",
                                 command: command)
            }
            if !given.target.contains("mtu=") {
                device?.target += (given.target.contains("?") ? "&" : "?") + "mtu=\(mtu)"
            }
        }
        self.device = device
        var rules: [AnswerRule] = []
        for text in arguments.values["--answer"] ?? [] {
            switch AnswerRule.parse(text) {
            case let .success(rule): rules.append(rule)
            case let .failure(error): throw UsageError(error.message, command: command)
            }
        }
        guard rules.isEmpty || device == nil else {
            throw UsageError("--answer applies to the generic device (without --device)", command: command)
        }
        self.rules = rules
        settings = try ParameterSetting.parse(arguments.values["--set"] ?? [], command: command)
    }

    func run(_ console: any Console) async -> Int32 {
        guard let profile = CommandInputs.profile(profileName, console: console) else { return ExitCode.dataError }
        let options: FlashOptions
        let places = ParameterSetting.places(settings)
        do {
            options = FlashOptions(parameters: try Preflight.parameters(ParameterSetting.values(settings), profile: profile) { places[$0] })
        } catch {
            Refusal.print(error, console: console, command: "dfukit \(Self.name)")
            return error.exitCode
        }
        guard let package = CommandInputs.intactPackage(packagePath, console: console) else { return ExitCode.dataError }
        // A trace is for looking: a package of another kind is traced, with the warning `flash` would refuse it with.
        if let problem = Preflight.kindProblem(package, profile: profile) {
            console.error("warning: \(problem)\n  dfukit flash refuses it without --force; tracing it anyway")
        }
        let inner: any GATTTransport
        if let device {
            switch TransportFactory.open(device, console: console, command: "dfukit \(Self.name)",
                                         security: profile.security, profile: profile) {
            case let .success(opened): inner = opened
            case let .failure(status): return status.code
            }
        } else {
            if let problem = rules.lazy.compactMap({ $0.problem(in: profile) }).first {
                console.error("error: \(problem)\nSee 'dfukit \(Self.name) --help'.")
                return ExitCode.usage
            }
            inner = GenericDevice(profile: profile, mtu: mtu ?? 247, rules: rules)
        }
        // The generic device is the only one there: a profile without a match rule (one being
        // written) is traced at its address rather than refused.
        let address = device?.address ?? inner.soleDevice
            ?? (device == nil && profile.match.isEmpty ? GenericDevice.address : nil)
        let run = TraceRun(profile: profile, images: PackageImages.flashImages(package), address: address,
                           options: options, clock: device.map { $0.isSimulatedClock ? "simulated" : "wall" } ?? "virtual",
                           generic: device == nil, json: json)
        return await InterruptHandling.exitStatus(console) {
            await run.run(over: inner, console: console)
        }
    }
}
