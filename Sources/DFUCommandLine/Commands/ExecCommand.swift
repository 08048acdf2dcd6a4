/// `dfukit exec --profile P --device DEVICE COMMAND [--set NAME=VALUE]... [--json]`: sends one
/// command of a profile and prints the device's answer as JSON.
struct ExecCommand: Command {
    static let name = "exec"
    static let summary = "Send one command of a profile to a device and print its answer."
    static let usage = "dfukit exec --profile NAME|FILE --device TRANSPORT[/ADDRESS] COMMAND [--set NAME=VALUE]... [--json]"
    static let options: [OptionSpec] = [
        OptionSpec("--profile", "-p", value: "NAME|FILE", help: "the profile whose command to send"),
        OptionSpec("--device", "-d", value: "DEVICE", help: "TRANSPORT[/ADDRESS], e.g. sim:mcumgr-smp"),
        OptionSpec("--set", value: "NAME=VALUE", help: "a profile parameter the command uses", repeatable: true),
        OptionSpec("--json", help: "print the answer on one line"),
    ]
    static let discussion = """
        COMMAND is a key of the profile's `commands`. The answer's fields are printed as JSON
        (bytes as hex). Example: dfukit exec --profile mcumgr-smp --device sim:mcumgr-smp image_list
        Exit: 0 answered, 1 the device refused or did not answer, 64 usage, 65 bad profile, 69 transport.
        """

    let runner: ProfileCommandRunner

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.count == 1 else {
            throw UsageError("name exactly one command of the profile", command: command)
        }
        runner = ProfileCommandRunner(
            profileName: try arguments.requiredValue("--profile"),
            device: try DeviceSpecifier(parsing: try arguments.requiredValue("--device")),
            command: arguments.positionals[0],
            parameters: try ProfileCommandRunner.keyValues(arguments.values["--set"] ?? [], command: command),
            json: arguments.flag("--json"))
    }

    func run(_ console: any Console) async -> Int32 {
        await runner.run(console)
    }
}
