/// `dfukit exec --profile P --device DEVICE COMMAND [--set NAME=VALUE]... [--yes] [--json]`:
/// sends one command of a profile and prints the device's answer as JSON.
struct ExecCommand: Command {
    static let name = "exec"
    static let summary = "Send one command of a profile to a device and print its answer."
    static let usage = "dfukit exec --profile NAME|FILE --device TRANSPORT[/ADDRESS] COMMAND [--set NAME=VALUE]... [--yes] [--json]"
    static let options: [OptionSpec] = [
        SharedOptions.profile("the profile whose command to send"),
        SharedOptions.device("TRANSPORT[/ADDRESS], e.g. sim:mcumgr-smp"),
        SharedOptions.set("a profile parameter the command uses"),
        OptionSpec("--yes", "-y", help: "send a command that changes the device (the profile marks it changes-device)"),
        SharedOptions.record(),
        SharedOptions.json("print one JSON object: the answer, or why there is none"),
    ]
    static let discussion = """
        COMMAND is a key of the profile's `commands`. The answer's fields are printed as JSON
        (bytes as hex). Example: dfukit exec --profile mcumgr-smp --device sim:mcumgr-smp image_list
        Before connecting, the command and every --set are checked against the profile: the
        parameter must be one the command's request reads, its value of the parameter's type.
        A command that erases, writes, starts, activates or resets (changes-device in the
        profile) is sent only with --yes.
        With --json the object has every key in every outcome (dfukit schema output exec):
        status (answered or failed), command, profile, device, address, answer (the answer's
        fields, {} for a command without response fields; null without an answer) and error.
        Exit: 0 answered, 1 the device refused or did not answer, 64 usage (a wrong command,
        parameter or value, or --yes missing), 65 bad profile, 69 transport.
        """

    let runner: ProfileCommandRunner

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.count == 1 else {
            throw UsageError("name exactly one command of the profile", command: command)
        }
        runner = ProfileCommandRunner(
            profileName: try arguments.requiredValue("--profile"),
            device: try DeviceSpecifier(parsing: try arguments.requiredValue("--device"), command: command),
            command: arguments.positionals[0],
            settings: try ParameterSetting.parse(arguments.values["--set"] ?? [], command: command),
            json: arguments.flag("--json"), invokedAs: command, confirmed: arguments.flag("--yes"), printsResult: true,
            recordFile: arguments.value("--record"))
    }

    func run(_ console: any Console) async -> Int32 {
        await runner.run(console)
    }
}
